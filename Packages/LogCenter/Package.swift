// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "LogCenter",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "LogCenterFeature", targets: ["LogCenterFeature"])
  ],
  dependencies: [
    .package(path: "../Essentials"),
    .package(path: "../CommandLineKit"),
    .package(path: "../ViewKit"),
    .package(path: "../FeatureKit"),
    .package(path: "../LocalStore"),
  ],
  targets: [
    .target(
      name: "LogCenterFeature",
      dependencies: [
        .product(name: "Essentials", package: "Essentials"),
        .product(name: "CommandLineKit", package: "CommandLineKit"),
        .product(name: "ViewKit", package: "ViewKit"),
        .product(name: "FeatureKit", package: "FeatureKit"),
        .product(name: "LocalStore", package: "LocalStore"),
      ],
      resources: [.embedInCode("Resources/Strings.json")]),
    .testTarget(
      name: "LogCenterFeatureTests",
      dependencies: [
        "LogCenterFeature",
        .product(name: "CommandLineKit", package: "CommandLineKit"),
        .product(name: "Essentials", package: "Essentials"),
        .product(name: "EssentialsTesting", package: "Essentials"),
        .product(name: "FeatureKit", package: "FeatureKit"),
        .product(name: "FeatureKitTesting", package: "FeatureKit"),
        .product(name: "LocalStore", package: "LocalStore"),
        .product(name: "LocalStoreTesting", package: "LocalStore"),
        .product(name: "ViewKit", package: "ViewKit"),
        .product(name: "ViewKitTesting", package: "ViewKit"),
      ],
      exclude: ["__Snapshots__"]),
  ],
  swiftLanguageModes: [.v6]
)
