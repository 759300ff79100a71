// swift-tools-version: 6.1
import PackageDescription

// The app core both shells compose: the terminal console (Packages/Console) and the iPhone
// app (Apps/iOS). `AppCore` is the model (routes on navigation stacks, loading states,
// actions with inputs, confirmations and results, selection, search and refresh rules) as
// state, a pure update and effects; `AppRuntime` is what a running app needs around it
// (services, the environment, dispatching command lines). Neither holds a terminal or UI type.
let package = Package(
  name: "AppCore",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "AppCore", targets: ["AppCore"]),
    .library(name: "AppRuntime", targets: ["AppRuntime"]),
  ],
  dependencies: [
    .package(path: "../Essentials"),
    .package(path: "../CommandLineKit"),
    .package(path: "../ThemeKit"),
    .package(path: "../ViewKit"),
    .package(path: "../FeatureKit"),
    .package(path: "../LocalStore"),
    .package(path: "../SimAdminClient"),
  ],
  targets: [
    .target(
      name: "AppCore",
      dependencies: ["Essentials", "ThemeKit", "ViewKit", "FeatureKit"],
      resources: [.embedInCode("Resources/Strings.json")]),
    .target(
      name: "AppRuntime",
      dependencies: [
        "AppCore", "Essentials", "CommandLineKit", "ThemeKit", "ViewKit", "FeatureKit",
        "LocalStore", "SimAdminClient",
      ]),
    .testTarget(
      name: "AppCoreTests",
      dependencies: [
        "AppCore", "AppRuntime", "FeatureKit", "ViewKit", "CommandLineKit", "LocalStore",
        .product(name: "EssentialsTesting", package: "Essentials"),
        .product(name: "FeatureKitTesting", package: "FeatureKit"),
        .product(name: "LocalStoreTesting", package: "LocalStore"),
      ]),
  ]
)
