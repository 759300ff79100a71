// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "SimAdminSimulator",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "SimAdminSimulator", targets: ["SimAdminSimulator"])
  ],
  dependencies: [
    .package(path: "../Essentials"),
    .package(path: "../HTTPKit"),
  ],
  targets: [
    .target(
      name: "SimAdminSimulator",
      dependencies: [
        .product(name: "Essentials", package: "Essentials"),
        .product(name: "HTTPKit", package: "HTTPKit"),
      ],
      resources: [.embedInCode("Resources/Strings.json")]
    ),
    .testTarget(
      name: "SimAdminSimulatorTests",
      dependencies: [
        "SimAdminSimulator",
        .product(name: "Essentials", package: "Essentials"),
        .product(name: "EssentialsTesting", package: "Essentials"),
        .product(name: "HTTPKit", package: "HTTPKit"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
