// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "FeatureKit",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "FeatureKit", targets: ["FeatureKit"]),
    .library(name: "FeatureKitTesting", targets: ["FeatureKitTesting"]),
  ],
  dependencies: [
    .package(path: "../Essentials"),
    .package(path: "../CommandLineKit"),
    .package(path: "../ThemeKit"),
    .package(path: "../ViewKit"),
    // For FeatureKitTesting's harness only: a real store and the simulated SimAdmin fleet.
    .package(path: "../LocalStore"),
    .package(path: "../HTTPKit"),
    .package(path: "../SimAdminClient"),
    .package(path: "../SimAdminSimulator"),
  ],
  targets: [
    .target(
      name: "FeatureKit",
      dependencies: ["Essentials", "CommandLineKit", "ThemeKit", "ViewKit"],
      resources: [.embedInCode("Resources/Strings.json")]),
    .target(
      name: "FeatureKitTesting",
      dependencies: [
        "FeatureKit", "CommandLineKit", "ViewKit",
        .product(name: "EssentialsTesting", package: "Essentials"),
        .product(name: "LocalStore", package: "LocalStore"),
        .product(name: "LocalStoreTesting", package: "LocalStore"),
        .product(name: "HTTPKit", package: "HTTPKit"),
        .product(name: "SimAdminClient", package: "SimAdminClient"),
        .product(name: "SimAdminSimulator", package: "SimAdminSimulator"),
      ]),
    .testTarget(
      name: "FeatureKitTests",
      dependencies: [
        "FeatureKit", "FeatureKitTesting",
        .product(name: "SimAdminClient", package: "SimAdminClient"),
        .product(name: "SimAdminSimulator", package: "SimAdminSimulator"),
      ]),
  ]
)
