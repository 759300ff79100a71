// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "DeviceModules",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "DeviceModulesFeature", targets: ["DeviceModulesFeature"])
  ],
  dependencies: [
    .package(path: "../Essentials"),
    .package(path: "../CommandLineKit"),
    .package(path: "../ViewKit"),
    .package(path: "../FeatureKit"),
    .package(path: "../LocalStore"),
    .package(path: "../SimAdminClient"),
    .package(path: "../SimAdminSimulator"),
  ],
  targets: [
    .target(
      name: "DeviceModulesFeature",
      dependencies: [
        .product(name: "Essentials", package: "Essentials"),
        .product(name: "CommandLineKit", package: "CommandLineKit"),
        .product(name: "ViewKit", package: "ViewKit"),
        .product(name: "FeatureKit", package: "FeatureKit"),
        .product(name: "LocalStore", package: "LocalStore"),
        .product(name: "SimAdminClient", package: "SimAdminClient"),
      ],
      resources: [.embedInCode("Resources/Strings.json")]
    ),
    .testTarget(
      name: "DeviceModulesFeatureTests",
      dependencies: [
        "DeviceModulesFeature",
        .product(name: "Essentials", package: "Essentials"),
        .product(name: "EssentialsTesting", package: "Essentials"),
        .product(name: "CommandLineKit", package: "CommandLineKit"),
        .product(name: "ViewKit", package: "ViewKit"),
        .product(name: "ViewKitTesting", package: "ViewKit"),
        .product(name: "FeatureKit", package: "FeatureKit"),
        .product(name: "FeatureKitTesting", package: "FeatureKit"),
        .product(name: "LocalStore", package: "LocalStore"),
        .product(name: "LocalStoreTesting", package: "LocalStore"),
        .product(name: "SimAdminClient", package: "SimAdminClient"),
        .product(name: "SimAdminSimulator", package: "SimAdminSimulator"),
      ],
      exclude: ["__Snapshots__"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
