// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "LocalStore",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "LocalStore", targets: ["LocalStore"]),
    .library(name: "LocalStoreTesting", targets: ["LocalStoreTesting"]),
  ],
  dependencies: [.package(path: "../Essentials")],
  targets: [
    .systemLibrary(
      name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .target(
      name: "LocalStore",
      dependencies: [
        .product(name: "Essentials", package: "Essentials"),
        .target(name: "CSQLite", condition: .when(platforms: [.linux])),
      ],
      resources: [.embedInCode("Resources/Strings.json")]),
    .target(
      name: "LocalStoreTesting",
      dependencies: [
        "LocalStore",
        .product(name: "Essentials", package: "Essentials"),
        .product(name: "EssentialsTesting", package: "Essentials"),
      ]),
    .testTarget(
      name: "LocalStoreTests",
      dependencies: [
        "LocalStore", "LocalStoreTesting",
        .product(name: "Essentials", package: "Essentials"),
        .product(name: "EssentialsTesting", package: "Essentials"),
      ]),
  ]
)
