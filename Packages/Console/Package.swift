// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "Console",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "ConsoleKit", targets: ["ConsoleKit"])
  ],
  dependencies: [
    .package(path: "../Essentials"),
    .package(path: "../ThemeKit"),
    .package(path: "../ViewKit"),
    .package(path: "../FeatureKit"),
    .package(path: "../CommandLineKit"),
    .package(path: "../AppCore"),
  ],
  targets: [
    .target(
      name: "ConsoleKit",
      dependencies: [
        "Essentials", "ThemeKit", "ViewKit", "FeatureKit",
        .product(name: "AppCore", package: "AppCore"),
      ],
      resources: [.embedInCode("Resources/Strings.json")]),
    .testTarget(
      name: "ConsoleKitTests",
      dependencies: [
        "ConsoleKit", "FeatureKit", "ViewKit", "CommandLineKit",
        .product(name: "EssentialsTesting", package: "Essentials"),
        .product(name: "FeatureKitTesting", package: "FeatureKit"),
      ]),
  ]
)
