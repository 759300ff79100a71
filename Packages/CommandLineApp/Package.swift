// swift-tools-version: 6.1
import PackageDescription

// The `msa` program around its features: one process's run of a command line (parsing, global
// options, help, `--fields`, rendering, the pager, errors and exit statuses), the built-in
// commands (`routes`, `modules`, `view`, `about`), the command-line conventions (`help`,
// `completion`, `manual`, `__complete`), the console (`ui`), `demo` and `simulate`. It knows
// no feature: Apps/MSAApp composes it with the features a build compiles in. Terminal-only
// (the iPhone app uses AppCore, never this package).
let package = Package(
  name: "CommandLineApp",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "CommandLineApp", targets: ["CommandLineApp"])
  ],
  dependencies: [
    .package(path: "../Essentials"),
    .package(path: "../CommandLineKit"),
    .package(path: "../ThemeKit"),
    .package(path: "../ViewKit"),
    .package(path: "../FeatureKit"),
    .package(path: "../LocalStore"),
    .package(path: "../SimAdminSimulator"),
    .package(path: "../AppCore"),
    .package(path: "../Console"),
  ],
  targets: [
    .target(
      name: "CommandLineApp",
      dependencies: [
        "Essentials", "CommandLineKit", "ThemeKit", "ViewKit", "FeatureKit", "LocalStore",
        "SimAdminSimulator", .product(name: "AppRuntime", package: "AppCore"),
        .product(name: "ConsoleKit", package: "Console"),
      ],
      resources: [.embedInCode("Resources/Strings.json")]),
    .testTarget(
      name: "CommandLineAppTests",
      dependencies: [
        "CommandLineApp", "Essentials", "FeatureKit",
        .product(name: "EssentialsTesting", package: "Essentials"),
      ]),
  ]
)
