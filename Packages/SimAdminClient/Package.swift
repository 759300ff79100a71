// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "SimAdminClient",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "SimAdminClient", targets: ["SimAdminClient"])
  ],
  dependencies: [
    .package(path: "../Essentials"),
    .package(path: "../HTTPKit"),
    .package(path: "../SimAdminSimulator"),
  ],
  targets: [
    .target(
      name: "SimAdminClient",
      dependencies: [
        .product(name: "Essentials", package: "Essentials"),
        .product(name: "HTTPKit", package: "HTTPKit"),
      ],
      resources: [
        .embedInCode("Resources/Strings.json"), .embedInCode("Resources/RouteShapes.json"),
      ]
    ),
    .testTarget(
      name: "SimAdminClientTests",
      dependencies: [
        "SimAdminClient",
        .product(name: "Essentials", package: "Essentials"),
        .product(name: "EssentialsTesting", package: "Essentials"),
        .product(name: "HTTPKit", package: "HTTPKit"),
        .product(name: "SimAdminSimulator", package: "SimAdminSimulator"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
