import Foundation

@testable import HTTPKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `openssl s_server -www` on 127.0.0.1 with a throwaway self-signed certificate made in a
/// temporary folder; it answers any `GET` with an HTTP/1.0 status page, then closes.
final class TLSTestServer {
  /// The port on 127.0.0.1.
  let port: Int
  /// The self-signed certificate (PEM), which is also its own CA.
  let certificate: URL
  private let folder: URL
  private let process: Process

  /// Where the `openssl` command is, if anywhere on `PATH`.
  static let openssl: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/openssl" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }()

  /// Whether TLS can be tested here: the `openssl` command and a loadable libssl.
  static var isAvailable: Bool {
    #if os(Linux)
      guard openssl != nil, case .success = TLSLibrary.shared else { return false }
      return true
    #else
      return false  // Apple platforms speak TLS through URLSession, not the socket transport
    #endif
  }

  /// Makes a certificate whose subjectAltName is `subjectAltName` (e.g. `IP:127.0.0.1`) and
  /// starts serving; returns once the port accepts connections.
  init(subjectAltName: String) throws {
    guard let openssl = Self.openssl else { throw POSIXError(.ENOENT) }
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("msa-tls-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    certificate = folder.appendingPathComponent("cert.pem")
    let key = folder.appendingPathComponent("key.pem")
    try Self.run(
      openssl,
      [
        "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
        "-keyout", key.path, "-out", certificate.path, "-days", "1", "-subj", "/CN=msa-test",
        "-addext", "subjectAltName=\(subjectAltName)",
      ])
    port = try Self.freePort()
    process = Process()
    process.executableURL = URL(fileURLWithPath: openssl)
    process.arguments = [
      "s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate.path, "-key", key.path,
      "-www", "-quiet",
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    for _ in 0..<200 where !Self.accepts(port) {
      Thread.sleep(forTimeInterval: 0.025)
    }
  }

  /// `https://127.0.0.1:<port>`.
  var origin: URL { URL(string: "https://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }

  /// Stops the server and deletes the certificate.
  func stop() {
    if process.isRunning {
      // SIGKILL: the test runner's children may inherit an ignored SIGTERM.
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(at: folder)
  }

  private static func run(_ executable: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw POSIXError(.EIO) }
  }

  /// A port nothing listens on right now.
  private static func freePort() throws -> Int {
    let server = try ScriptedServer { _ in .close }
    defer { server.stop() }
    return server.port
  }

  private static func accepts(_ port: Int) -> Bool {
    guard let address = SocketAddress(numericHost: "127.0.0.1", port: port),
      case .success(let fd) = SocketCalls.openStream(family: AF_INET)
    else { return false }
    defer { close(fd) }
    var code = SocketCalls.startConnect(fd, to: address)
    if code == EINPROGRESS {
      var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
      _ = poll(&entry, 1, 200)
      code = SocketCalls.pendingError(fd)
    }
    return code == 0
  }
}
