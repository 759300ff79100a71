import Essentials
import Foundation
import LocalStoreTesting
import Testing

@testable import LocalStore

/// A connection-log record's requests are written directly (`JSONWriter`, format `.stored`): byte for byte
/// what `JSONEncoder` with `.sortedKeys` writes (the plain encoder's member order changes from
/// run to run), and read back as the same requests.
@Suite struct ConnectionLogTextTests {
  static func sortedEncoder(_ requests: [DeviceRequest]) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(requests), as: UTF8.self)
  }

  static let texts = [
    "GET", "/api/sms/list", "", "error.timeout", "quote \" backslash \\ slash /",
    "中文 😀 e\u{301}", String((0..<0x80).map { Character(UnicodeScalar($0)!) }),
  ]

  @Test("the same bytes as the sorted encoder, the same requests as the old text")
  func sameAsTheEncoder() throws {
    var requests: [DeviceRequest] = []
    for (index, text) in Self.texts.enumerated() {
      requests.append(
        DeviceRequest(
          method: text, route: text, status: index % 2 == 0 ? 200 + index : nil,
          bytes: index % 3 == 0 ? nil : index * 1000, milliseconds: index - 3,
          failure: index % 2 == 0 ? nil : text))
    }
    requests.append(
      DeviceRequest(
        method: "GET", route: "/api/health", status: Int.max, bytes: Int.min, milliseconds: 0))
    for count in [0, 1, 2, requests.count] {
      let slice = Array(requests.prefix(count))
      let written = ConnectionLogRepository.encode(slice)
      #expect(Array(written.utf8) == Array(try Self.sortedEncoder(slice).utf8))
      #expect(ConnectionLogRepository.decode(written) == slice)
      let old = String(decoding: try JSONEncoder().encode(slice), as: UTF8.self)
      #expect(ConnectionLogRepository.decode(old) == ConnectionLogRepository.decode(written))
    }
  }

  @Test("a record's requests read back from the store")
  func storedAndRead() throws {
    let directory = try TemporaryDirectory()
    let store = try Store.open(
      directory: directory.url, modules: [], clock: AppClock.system)
    let log = ConnectionLogRepository(store: store)
    let requests = [
      DeviceRequest(
        method: "GET", route: "/api/health", status: 200, bytes: 95, milliseconds: 51),
      DeviceRequest(
        method: "GET", route: "/api/sms/list", status: nil, bytes: nil, milliseconds: 5000,
        failure: "error.timeout"),
    ]
    try log.append(
      ConnectionLogEntry(
        instanceID: "i1", instanceName: "one", at: Date(timeIntervalSince1970: 1_764_658_800),
        result: "online", status: "online", previousStatus: nil, latencyMS: 51, reason: nil,
        requests: requests))
    #expect(try log.list().first?.requests == requests)
  }
}
