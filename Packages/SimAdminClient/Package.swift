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
    .package(path: "../SimAdminSimulator"),
  ],
  targets: [
    // OpenSSL's headers only (no library is linked): the types and constants of the https
    // support on Linux, which opens libssl with dlopen when the first https request is made.
    .systemLibrary(
      name: "COpenSSL", path: "Sources/COpenSSL",
      providers: [.apt(["libssl-dev"]), .yum(["openssl-devel"])]),
    .target(
      name: "SimAdminClient",
      dependencies: [
        .product(name: "Essentials", package: "Essentials"),
        .target(name: "COpenSSL", condition: .when(platforms: [.linux])),
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
        .product(name: "SimAdminSimulator", package: "SimAdminSimulator"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
