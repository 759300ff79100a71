// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "ThemeKit",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "ThemeKit", targets: ["ThemeKit"])
  ],
  dependencies: [
    .package(path: "../Essentials")
  ],
  targets: [
    .target(
      name: "ThemeKit",
      dependencies: [.product(name: "Essentials", package: "Essentials")],
      resources: [.embedInCode("Resources/Strings.json"), .embedInCode("Resources/tokens.json")]
    ),
    .testTarget(
      name: "ThemeKitTests",
      dependencies: [
        "ThemeKit", .product(name: "Essentials", package: "Essentials"),
        .product(name: "EssentialsTesting", package: "Essentials"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
