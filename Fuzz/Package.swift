// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for the parsers that read what a device, a file or a command line hands
// msa. Kept apart from the root package so the normal build never sees the sanitizer flags.
// Built and run by scripts/fuzz:
//   swift build --package-path Fuzz -c debug \
//     -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
// Each target is an executable whose `LLVMFuzzerTestOneInput` libFuzzer's driver calls (its
// `<Target>_main` starts the driver, see Sources/FuzzDriver); seed inputs live in
// Corpus/<target>/.
let package = Package(
  name: "MultiSimAdminFuzz",
  dependencies: [
    .package(path: "../Packages/Essentials"),
    .package(path: "../Packages/CommandLineKit"),
    .package(path: "../Packages/ThemeKit"),
    .package(path: "../Packages/LocalStore"),
    .package(path: "../Packages/HTTPKit"),
    .package(path: "../Packages/SimAdminClient"),
    .package(path: "../Packages/LogCenter"),
    .package(path: "../Packages/ViewKit"),
    .package(path: "../Packages/Fleet"),
    .package(path: "../Packages/DeviceModules"),
    .package(path: "../Packages/Messages"),
  ],
  targets: [
    // The entry point every target hands its input function to (see FuzzDriver.h).
    .target(name: "FuzzDriver"),
    .executableTarget(
      name: "FuzzHTTPResponse",
      dependencies: ["FuzzDriver", .product(name: "HTTPKit", package: "HTTPKit")]),
    .executableTarget(
      name: "FuzzJSONCursor",
      dependencies: ["FuzzDriver", .product(name: "SimAdminClient", package: "SimAdminClient")]),
    .executableTarget(
      name: "FuzzSmsPage",
      dependencies: ["FuzzDriver", .product(name: "SimAdminClient", package: "SimAdminClient")]),
    .executableTarget(
      name: "FuzzCommandLine",
      dependencies: [
        "FuzzDriver", .product(name: "CommandLineKit", package: "CommandLineKit"),
        .product(name: "Essentials", package: "Essentials"),
      ]),
    .executableTarget(
      name: "FuzzRegistryImport",
      dependencies: [
        "FuzzDriver", .product(name: "LogCenterFeature", package: "LogCenter"),
        .product(name: "LocalStore", package: "LocalStore"),
        .product(name: "Essentials", package: "Essentials"),
      ]),
    .executableTarget(
      name: "FuzzDurations",
      dependencies: [
        "FuzzDriver", .product(name: "CommandLineKit", package: "CommandLineKit"),
        .product(name: "Essentials", package: "Essentials"),
      ]),
    .executableTarget(
      name: "FuzzDatabaseFile",
      dependencies: [
        "FuzzDriver", .product(name: "LocalStore", package: "LocalStore"),
        .product(name: "Essentials", package: "Essentials"),
      ]),
    .executableTarget(
      name: "FuzzDeviceViews",
      dependencies: [
        "FuzzDriver", .product(name: "SimAdminClient", package: "SimAdminClient"),
        .product(name: "FleetFeature", package: "Fleet"),
        .product(name: "DeviceModulesFeature", package: "DeviceModules"),
        .product(name: "MessagesFeature", package: "Messages"),
        .product(name: "ViewKit", package: "ViewKit"),
        .product(name: "LocalStore", package: "LocalStore"),
        .product(name: "Essentials", package: "Essentials"),
      ]),
    .executableTarget(
      name: "FuzzTokens",
      dependencies: ["FuzzDriver", .product(name: "ThemeKit", package: "ThemeKit")]),
  ],
  swiftLanguageModes: [.v6]
)
