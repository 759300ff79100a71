// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "ViewKit",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "ViewKit", targets: ["ViewKit"]),
    .library(name: "ViewKitTesting", targets: ["ViewKitTesting"]),
  ],
  dependencies: [
    .package(path: "../Essentials"),
    .package(path: "../ThemeKit"),
  ],
  targets: [
    .target(
      name: "ViewKit",
      dependencies: [
        .product(name: "Essentials", package: "Essentials"),
        .product(name: "ThemeKit", package: "ThemeKit"),
      ],
      resources: [.embedInCode("Resources/Strings.json")]
    ),
    .target(name: "ViewKitTesting"),
    .testTarget(
      name: "ViewKitTests",
      dependencies: [
        "ViewKit", "ViewKitTesting",
        .product(name: "Essentials", package: "Essentials"),
        .product(name: "EssentialsTesting", package: "Essentials"),
        .product(name: "ThemeKit", package: "ThemeKit"),
      ],
      exclude: ["__Snapshots__"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
