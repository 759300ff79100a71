// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "CommandLineKit",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "CommandLineKit", targets: ["CommandLineKit"])
  ],
  dependencies: [
    .package(path: "../Essentials")
  ],
  targets: [
    .target(
      name: "CommandLineKit",
      dependencies: [.product(name: "Essentials", package: "Essentials")],
      resources: [.embedInCode("Resources/Strings.json")]
    ),
    .testTarget(
      name: "CommandLineKitTests",
      dependencies: [
        "CommandLineKit",
        .product(name: "Essentials", package: "Essentials"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
