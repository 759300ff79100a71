// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "SimAdminClient",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "SimAdminClient", targets: ["SimAdminClient"])
  ],
  dependencies: [
    .package(path: "../Essentials")
  ],
  targets: [
    .target(
      name: "SimAdminClient",
      dependencies: [.product(name: "Essentials", package: "Essentials")],
      resources: [.copy("Resources/Strings.json")]
    ),
    .testTarget(
      name: "SimAdminClientTests",
      dependencies: [
        "SimAdminClient",
        .product(name: "Essentials", package: "Essentials"),
        .product(name: "EssentialsTesting", package: "Essentials"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
