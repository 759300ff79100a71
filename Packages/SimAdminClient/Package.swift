// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "SimAdminClient",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "SimAdminClient", targets: ["SimAdminClient"]),
    .library(name: "SimAdminClientTesting", targets: ["SimAdminClientTesting"]),
  ],
  dependencies: [
    .package(path: "../Essentials"),
    .package(path: "../SimAdminSimulator"),
  ],
  targets: [
    .target(
      name: "SimAdminClient",
      dependencies: [.product(name: "Essentials", package: "Essentials")],
      resources: [.embedInCode("Resources/Strings.json")]
    ),
    .target(
      name: "SimAdminClientTesting",
      dependencies: ["SimAdminClient", .product(name: "Essentials", package: "Essentials")]
    ),
    .testTarget(
      name: "SimAdminClientTests",
      dependencies: [
        "SimAdminClient",
        "SimAdminClientTesting",
        .product(name: "Essentials", package: "Essentials"),
        .product(name: "EssentialsTesting", package: "Essentials"),
        .product(name: "SimAdminSimulator", package: "SimAdminSimulator"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
