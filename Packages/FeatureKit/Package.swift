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
  ],
  targets: [
    .target(
      name: "FeatureKit",
      dependencies: ["Essentials", "CommandLineKit", "ThemeKit", "ViewKit"],
      resources: [.embedInCode("Resources/Strings.json")]),
    .target(
      name: "FeatureKitTesting",
      dependencies: [
        "FeatureKit", .product(name: "EssentialsTesting", package: "Essentials"),
      ]),
    .testTarget(
      name: "FeatureKitTests",
      dependencies: ["FeatureKit", "FeatureKitTesting"]),
  ]
)
