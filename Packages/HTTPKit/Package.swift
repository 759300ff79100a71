// swift-tools-version: 6.1
import PackageDescription

// HTTP/1.1 for both ends of the project: the wire types, the request and response parsers,
// the device client's transports (POSIX sockets with TLS on Linux, URLSession on Apple
// platforms), the simulator's server on one event loop, and an in-memory transport that hands
// a request straight to a server's handler (no socket) for tests.
let package = Package(
  name: "HTTPKit",
  platforms: [.macOS(.v13), .iOS(.v16)],
  products: [
    .library(name: "HTTPKit", targets: ["HTTPKit"])
  ],
  dependencies: [
    .package(path: "../Essentials")
  ],
  targets: [
    // sys/epoll.h, which Swift's Glibc module leaves out (ReadinessSet on Linux).
    .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
    // OpenSSL's headers only (no library is linked): the types and constants of the https
    // support on Linux, which opens libssl with dlopen when the first https request is made.
    .systemLibrary(
      name: "COpenSSL", path: "Sources/COpenSSL",
      providers: [.apt(["libssl-dev"]), .yum(["openssl-devel"])]),
    .target(
      name: "HTTPKit",
      dependencies: [
        .product(name: "Essentials", package: "Essentials"),
        .target(name: "CEpoll", condition: .when(platforms: [.linux])),
        .target(name: "COpenSSL", condition: .when(platforms: [.linux])),
      ],
      resources: [.embedInCode("Resources/Strings.json")]
    ),
    .testTarget(
      name: "HTTPKitTests",
      dependencies: [
        "HTTPKit",
        .product(name: "Essentials", package: "Essentials"),
        .product(name: "EssentialsTesting", package: "Essentials"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
