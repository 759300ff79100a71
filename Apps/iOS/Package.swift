// swift-tools-version: 6.1
import PackageDescription

// The iPhone app: a SwiftUI shell over the app core (Packages/AppCore), composing the same
// feature packages as `msa`. Its own package, beside the root rather than in it, so the root
// builds and tests on Linux unchanged; scripts/build-ios-ipa.sh builds it for
// arm64-apple-ios16.0 on a Mac and packs the unsigned IPA (docs/ios.md).
//
// Sources/MultiSimAdmin/Composition.swift is the one file that imports feature packages;
// Shell/ imports only the core, shared packages and SwiftUI (scripts/check-ios checks both).
let features = ["Fleet", "Messages", "DeviceModules", "LogCenter"]

let package = Package(
  name: "MultiSimAdminPhone",
  platforms: [.iOS(.v16), .macOS(.v13)],
  products: [
    .executable(name: "MultiSimAdmin", targets: ["MultiSimAdmin"])
  ],
  dependencies: [
    .package(path: "../../Packages/Essentials"),
    .package(path: "../../Packages/FeatureKit"),
    .package(path: "../../Packages/LocalStore"),
    .package(path: "../../Packages/AppCore"),
  ] + features.map { .package(path: "../../Packages/\($0)") },
  targets: [
    .executableTarget(
      name: "MultiSimAdmin",
      dependencies: [
        "Essentials", "FeatureKit", "LocalStore",
        .product(name: "AppCore", package: "AppCore"),
        .product(name: "AppRuntime", package: "AppCore"),
      ] + features.map { .product(name: "\($0)Feature", package: $0) },
      path: "Sources/MultiSimAdmin")
  ]
)
