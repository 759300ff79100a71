// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "Essentials",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "Essentials", targets: ["Essentials"]),
    .library(name: "EssentialsTesting", targets: ["EssentialsTesting"]),
  ],
  targets: [
    .target(
      name: "Essentials",
      resources: [
        .embedInCode("Resources/Strings.json"), .embedInCode("Resources/CodeRules.json"),
      ]),
    .target(name: "EssentialsTesting", dependencies: ["Essentials"]),
    .testTarget(name: "EssentialsTests", dependencies: ["Essentials", "EssentialsTesting"]),
  ]
)
