// swift-tools-version: 6.1
import PackageDescription

// The root package: the thin `msa` app composed from the local packages in Packages/, and the
// integration tests of the composed app. Each feature is a package trait, all on by default:
// `swift build --traits Fleet,DeviceModules` builds an msa with only those features.
let features = ["Fleet", "Messages", "DeviceModules", "LogCenter"]

let package = Package(
  name: "MultiSimAdmin",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .executable(name: "msa", targets: ["msa"]),
    .executable(name: "msa-bench", targets: ["msa-bench"]),
  ],
  traits: .init(
    features.map { .trait(name: $0, description: "Compile in the \($0) feature.") }
      + [.default(enabledTraits: Set(features))]),
  dependencies: [
    .package(path: "Packages/Essentials"),
    .package(path: "Packages/ViewKit"),
    .package(path: "Packages/FeatureKit"),
    .package(path: "Packages/LocalStore"),
    .package(path: "Packages/SimAdminSimulator"),
    .package(path: "Packages/AppCore"),
    .package(path: "Packages/Console"),
    .package(path: "Packages/CommandLineApp"),
  ] + features.map { .package(path: "Packages/\($0)") },
  targets: [
    .target(
      name: "MSAApp",
      dependencies: ["FeatureKit", "LocalStore", "CommandLineApp"]
        + features.map {
          .product(name: "\($0)Feature", package: $0, condition: .when(traits: [$0]))
        },
      path: "Apps/MSAApp"),
    .executableTarget(name: "msa", dependencies: ["MSAApp"], path: "Apps/msa"),
    // The benchmark driver of scripts/bench: an in-process fleet, search and render timings.
    .executableTarget(
      name: "msa-bench",
      dependencies: [
        "Essentials", "LocalStore", "ViewKit", "SimAdminSimulator",
        .product(name: "FleetFeature", package: "Fleet"),
        .product(name: "MessagesFeature", package: "Messages"),
      ],
      path: "Apps/bench", exclude: ["bench.py"]),
    .testTarget(
      name: "MSAAppTests",
      dependencies: [
        "MSAApp", "CommandLineApp", "FeatureKit", "Essentials", "ViewKit", "SimAdminSimulator",
        "LocalStore", .product(name: "LocalStoreTesting", package: "LocalStore"),
        .product(name: "MessagesFeature", package: "Messages"),
        .product(name: "ConsoleKit", package: "Console"),
        .product(name: "AppRuntime", package: "AppCore"),
        .product(name: "EssentialsTesting", package: "Essentials"),
        .product(name: "FeatureKitTesting", package: "FeatureKit"),
      ],
      path: "Tests/MSAAppTests"),
  ]
)
