import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import LocalStore
import Testing

@testable import LogCenterFeature

@Suite struct SecretLeakTests {
  static let password = "Hunter2-Passw0rd"
  static let cookieValue = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdE"  // 43 characters
  static let bearer = "eyJhbGciOiJIUzI1NiJ9.c2VjcmV0.tokenSig"
  static let sessionToken = "sess-7f3a9c2b1d4e"
  static let smsCode = "482913"
  static var secrets: [String] { [password, cookieValue, bearer, sessionToken, smsCode] }

  func leaks(in text: String) -> [String] {
    Self.secrets.filter { text.contains($0) }
  }

  @Test func noSecretReachesAnyOutput() async throws {
    #expect(Self.cookieValue.count == 43)
    let harness = try FeatureHarness(.logCenter)
    let router = try harness.addInstance("Router A", "http://10.0.0.1:3000")
    try harness.store.credentials.setPassword(Self.password, for: router.id)
    let logger = harness.storeLogger("msa.session")
    // Every kind of secret, in the message and in metadata, through the Logger → store path.
    logger.info(
      "login password=\(Self.password) Cookie: simadmin_session=\(Self.cookieValue)",
      metadata: [
        "instance_id": router.id, "password": Self.password,
        "set-cookie": "simadmin_session=\(Self.cookieValue); Path=/; HttpOnly",
        "authorization": "Bearer \(Self.bearer)", "session_token": Self.sessionToken,
        "body": "Your code is \(Self.smsCode), valid 5 min",
      ])
    logger.warning("request failed\nAuthorization: Bearer \(Self.bearer)")
    logger.error("retry with token=\(Self.sessionToken)", metadata: ["sms": Self.smsCode])
    // A record stored without the Logger is masked again on the way out.
    try RuntimeLogRepository(store: harness.store).append(
      LogRecord(
        date: harness.clock.clock.now(), level: .error, label: "raw",
        message: "simadmin_session=\(Self.cookieValue) password=\(Self.password)",
        metadata: ["cookie": Self.cookieValue, "text": "code \(Self.smsCode)"]))

    var outputs: [String] = []
    for arguments in [
      ["logs"], ["logs", "show", "r1"], ["logs", "show", "r2"], ["logs", "show", "r4"],
      ["logs", "--search", "login"], ["logs", "export"], ["logs", "export", "--format", "csv"],
    ] {
      let result = try await harness.run(arguments)
      let (text, json) = (result.text(width: 120), try result.json())
      outputs += [text, json]
    }
    for format in ["jsonl", "csv"] {
      let file = harness.directory.appendingPathComponent("export.\(format)")
      _ = try await harness.run(["logs", "export", "--format", format, "--output", file.path])
      outputs.append(try String(contentsOf: file, encoding: .utf8))
    }
    let registry = harness.directory.appendingPathComponent("registry.json")
    _ = try await harness.run(["data", "export-registry", registry.path])
    outputs.append(try String(contentsOf: registry, encoding: .utf8))
    // Error messages: a search that finds a secret must not echo it back from the records,
    // and an import whose origin holds a password must not repeat it.
    let bad = harness.directory.appendingPathComponent("bad.json")
    try Data(
      #"{"schemaVersion":1,"instances":[{"name":"x","origin":"http://u:\#(Self.password)@h"}]}"#
        .utf8
    ).write(to: bad)
    outputs.append(await harness.outcome(["data", "import-registry", bad.path]).message)
    outputs.append(harness.streams.error)
    // `logs export` without --output writes the raw lines to stdout.
    #expect(harness.streams.output.contains("\"kind\""))
    outputs.append(harness.streams.output)

    for (index, output) in outputs.enumerated() {
      #expect(leaks(in: output).isEmpty, "output \(index) leaks \(leaks(in: output))")
    }
    // Masked before storing: the database file itself holds none of them.
    try harness.store.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    let bytes = try Data(contentsOf: harness.store.databaseURL)
    let raw = String(decoding: bytes, as: UTF8.self)
    // The raw record above was stored unmasked on purpose (it bypassed the Logger); every
    // Logger record must be masked in the file.
    let loggerRows = try harness.store.database.query(
      "SELECT message, metadata FROM runtime_log WHERE label = 'msa.session'")
    #expect(loggerRows.count == 3)
    for row in loggerRows {
      let text = try row.string("message") + (try row.string("metadata"))
      #expect(leaks(in: text).isEmpty, "stored record leaks \(leaks(in: text))")
    }
    #expect(!leaks(in: raw).isEmpty)  // the scan can see a secret: the raw record's
    // And the outputs do show that records exist, masked.
    #expect(outputs[0].contains("login"))
    #expect(outputs.joined().contains(Redactor.mask))
  }
}
