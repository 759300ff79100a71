import Foundation
import Testing

@testable import LocalStore

@Suite struct InstanceOriginTests {
  @Test(arguments: [
    ("http://192.168.1.1:3000", "http://192.168.1.1:3000"),
    ("  HTTP://Router.LAN:3000/  ", "http://router.lan:3000"),
    ("http://h:80", "http://h"),
    ("https://h:443/", "https://h"),
    ("https://h:80", "https://h:80"),
    ("http://[::1]:3000", "http://[::1]:3000"),
    ("http://[FD00::1]", "http://[fd00::1]"),
    ("http://my-router.local", "http://my-router.local"),
  ])
  func validOriginsAreNormalized(input: String, expected: String) throws {
    let origin = try InstanceOrigin(parsing: input)
    #expect(origin.string == expected)
    #expect(origin.url.absoluteString == expected)
  }

  @Test func defaultPortsMakeEqualOrigins() throws {
    #expect(try InstanceOrigin(parsing: "http://h:80") == InstanceOrigin(parsing: "http://H"))
    #expect(try InstanceOrigin(parsing: "http://h").isPlainHTTP)
    #expect(try !InstanceOrigin(parsing: "https://h").isPlainHTTP)
    #expect(try InstanceOrigin(parsing: "https://h").effectivePort == 443)
  }

  @Test(arguments: [
    ("http://192.168.1.1:3000/api", OriginError.hasPath("/api")),
    ("http://h/a/b", .hasPath("/a/b")),
    ("http://h?x=1", .hasQuery("x=1")),
    ("http://h/?x=1", .hasQuery("x=1")),
    ("http://h#top", .hasFragment("top")),
    ("http://admin:pw@h", .hasUserInfo),
    ("ftp://h", .unsupportedScheme("ftp")),
    ("192.168.1.1:3000", .missingScheme("192.168.1.1:3000")),
    ("http://", .missingHost),
    ("http://:3000", .missingHost),
    ("http://h:0", .invalidPort("0")),
    ("http://h:70000", .invalidPort("70000")),
    ("http://h:abc", .invalidPort("abc")),
    ("http://h:", .invalidPort("")),
    ("http://my host", .containsSpaces),
    ("", .empty),
    ("http://h_st!", .invalidHost("h_st!")),
    ("http://::1", .invalidHost("::1")),
  ])
  func invalidOriginsSayWhatIsWrong(input: String, expected: OriginError) {
    #expect(throws: expected) { try InstanceOrigin(parsing: input) }
  }

  @Test func messagesNameTheProblemInBothLanguages() {
    let path = OriginError.hasPath("/api")
    #expect(
      path.description
        == "The address has a path (/api). Give only scheme, host and port, like http://192.168.1.1:3000."
    )
    #expect(path.localizedMessage(.simplifiedChinese).contains("/api"))
    #expect(!OriginError.hasUserInfo.description.contains("pw"))
  }

  @Test func codableAsItsString() throws {
    let origin = try InstanceOrigin(parsing: "https://Example.com:8443")
    let data = try JSONEncoder().encode([origin])
    #expect(String(decoding: data, as: UTF8.self) == #"["https:\/\/example.com:8443"]"#)
    #expect(try JSONDecoder().decode([InstanceOrigin].self, from: data) == [origin])
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([InstanceOrigin].self, from: Data(#"["ftp://x"]"#.utf8))
    }
  }

  /// Every origin of the tests above, their normalized forms, and stored texts a hostile or
  /// older file could hold.
  static let storedTexts: [String] = [
    "http://192.168.1.1:3000", "  HTTP://Router.LAN:3000/  ", "http://h:80", "https://h:443/",
    "https://h:80", "http://[::1]:3000", "http://[FD00::1]", "http://my-router.local",
    "http://192.168.1.1:3000/api", "http://h/a/b", "http://h?x=1", "http://h/?x=1", "http://h#top",
    "http://admin:pw@h", "ftp://h", "192.168.1.1:3000", "http://", "http://:3000", "http://h:0",
    "http://h:70000", "http://h:abc", "http://h:", "http://my host", "", "http://h_st!",
    "http://::1", "http://router.lan:3000", "http://h", "https://h", "http://[fd00::1]",
    "https://example.com:8443", "http://127.0.0.1:20001", "http://10.0.1.7:3007",
    "http://h:65535", "http://h:65536", "http://h:99999", "http://h:100000", "http://h:080",
    "http://h:03000", "http://h:443", "https://h:80", "https://h:443", "http://h:1",
    "http://.h", "http://-h", "http://h.", "http://h-", "http://a..b", "http://a.-b",
    "http://a-.b", "http://Router", "HTTP://h", "Http://h", "http://h/", "http://h ",
    " http://h", "http://h\n", "http://h\t:80", "http://h:3000:1", "http://h::3000",
    "http://路由器", "http://h\u{0}", "http://h:+80", "http://h:-1", "http://h: 80",
    "https://", "https:/h", "http:h", "http://a_b", "http://[::1", "http://[::1]x",
    "http://[::1]:0", "http://[g::1]", "http://1.2.3.4.5", "http://999.999.999.999",
    "http://h:3000/", "http://h:3000#", "http://h:3000?", "http://xn--fiq228c.com",
  ]

  /// A stored origin gives exactly what the parser gives: the same normalized origin or the
  /// same error, whether the byte check took it or the parser did — except a host only this
  /// version refuses (too long, a number that is no address, an IPv6 text that does not
  /// parse), which an older version stored and which still loads as it was written.
  @Test(arguments: storedTexts + addressTexts.map(\.0))
  func storedOriginsReadAsTheParserReadsThem(text: String) {
    let parsed = Result { () throws(OriginError) in try InstanceOrigin(parsing: text) }
    let stored = Result { () throws(OriginError) in try InstanceOrigin(stored: text) }
    if case .failure(let error) = parsed, Self.refusedSinceIssue36(error) {
      #expect((try? stored.get())?.string.hasPrefix("http") == true, "\(text)")
      return
    }
    switch (parsed, stored) {
    case (.success(let expected), .success(let origin)):
      #expect(origin.string == expected.string)
      #expect(origin.scheme == expected.scheme)
      #expect(origin.host == expected.host)
      #expect(origin.port == expected.port)
      #expect(origin.url == expected.url)
      #expect(origin.url.absoluteString == expected.string)
    case (.failure(let expected), .failure(let error)):
      #expect(error == expected)
    default:
      Issue.record("\(text): parsed \(parsed), stored \(stored)")
    }
    // The byte check takes only the parser's own normalized form.
    if let fast = InstanceOrigin.canonical(text) {
      #expect((try? InstanceOrigin(parsing: text))?.string == text)
      #expect(fast.string == text)
    }
  }

  /// The byte check takes the normalized forms themselves (the fast path is the one used).
  @Test func normalizedHostsAndPortsTakeTheByteCheck() throws {
    for text in [
      "http://192.168.1.1:3000", "https://example.com:8443", "http://h", "https://h:80",
      "http://my-router.local", "http://h:65535", "http://h:1", "http://h.", "http://a-.b",
    ] {
      let fast = try #require(InstanceOrigin.canonical(text))
      #expect(fast == (try InstanceOrigin(parsing: text)))
    }
    for text in [
      "http://h:80", "https://h:443", "http://H", "http://[::1]", "http://h:080", "http://h/",
      "http://.h", "http://a..b", "http://h:65536", "http://:80",
    ] {
      #expect(InstanceOrigin.canonical(text) == nil)
    }
  }

  static func refusedSinceIssue36(_ error: OriginError) -> Bool {
    switch error {
    case .hostTooLong, .labelTooLong, .notAnAddress: true
    default: false
    }
  }

  // MARK: - One device, one written address (issue 36 point 10)

  /// Every form a resolver reads as the same address is written once.
  static let addressTexts: [(String, String)] = [
    ("http://0x7f000001:3000", "http://127.0.0.1:3000"),
    ("http://0X7F000001:3000", "http://127.0.0.1:3000"),
    ("http://2130706433:3000", "http://127.0.0.1:3000"),
    ("http://127.1:3000", "http://127.0.0.1:3000"),
    ("http://127.0.1:3000", "http://127.0.0.1:3000"),
    ("http://0177.0.0.1:3000", "http://127.0.0.1:3000"),
    ("http://0x7f.0.0.0x1:3000", "http://127.0.0.1:3000"),
    ("http://127.0.0.1.:3000", "http://127.0.0.1:3000"),
    ("http://[::ffff:127.0.0.1]:3000", "http://127.0.0.1:3000"),
    ("http://[::FFFF:7F00:1]:3000", "http://127.0.0.1:3000"),
    ("http://[0:0:0:0:0:ffff:127.0.0.1]:3000", "http://127.0.0.1:3000"),
    ("http://010.8.8.8", "http://8.8.8.8"),
    ("http://192.168.1.010", "http://192.168.1.8"),
    ("http://0", "http://0.0.0.0"),
    ("http://0x", "http://0.0.0.0"),
    ("http://4294967295", "http://255.255.255.255"),
    ("http://[0:0:0:0:0:0:0:1]:3000", "http://[::1]:3000"),
    ("http://[0000::0001]", "http://[::1]"),
    ("http://[fd00:0:0:0:0:0:0:1]", "http://[fd00::1]"),
    ("http://[2001:db8:0:0:1:0:0:1]", "http://[2001:db8::1:0:0:1]"),
    ("http://[2001:0db8:0000:0000:0000:ff00:0042:8329]", "http://[2001:db8::ff00:42:8329]"),
    ("http://[1:0:1:0:1:0:1:0]", "http://[1:0:1:0:1:0:1:0]"),
    ("http://[::127.0.0.1]", "http://[::7f00:1]"),
    ("http://[::]", "http://[::]"),
    ("http://1a.example", "http://1a.example"),
    ("http://router.lan.", "http://router.lan."),
  ]

  @Test(arguments: addressTexts)
  func numericAndMappedAddressesHaveOneForm(input: String, expected: String) throws {
    let origin = try InstanceOrigin(parsing: input)
    #expect(origin.string == expected)
    #expect(origin.url.absoluteString == expected)
    #expect(try InstanceOrigin(stored: input).string == expected)
    #expect(try InstanceOrigin(parsing: expected) == origin)
    #expect(InstanceOrigin.canonical(input) == nil || input == expected)
  }

  @Test(arguments: [
    ("http://999.1.1.1", OriginError.notAnAddress("999.1.1.1")),
    ("http://1.2.3.4.5", .notAnAddress("1.2.3.4.5")),
    ("http://256.0.0.0", .notAnAddress("256.0.0.0")),
    ("http://1.2.3.256", .notAnAddress("1.2.3.256")),
    ("http://4294967296", .notAnAddress("4294967296")),
    ("http://08.0.0.1", .notAnAddress("08.0.0.1")),
    ("http://router.1", .notAnAddress("router.1")),
    ("http://1.2.3.0x100", .notAnAddress("1.2.3.0x100")),
    ("http://99999999999999999999999", .notAnAddress("99999999999999999999999")),
    ("http://[::ffff:127.0.0.01]", .invalidHost("::ffff:127.0.0.01")),
    ("http://[1::2::3]", .invalidHost("1::2::3")),
    ("http://[1:2:3:4:5:6:7:8:9]", .invalidHost("1:2:3:4:5:6:7:8:9")),
    ("http://[1:2:3:4:5:6:7]", .invalidHost("1:2:3:4:5:6:7")),
    ("http://[12345::1]", .invalidHost("12345::1")),
    ("http://[1:2:3:4:5:6:7::8]", .invalidHost("1:2:3:4:5:6:7::8")),
  ])
  func numbersThatAreNoAddressAreRefused(input: String, expected: OriginError) {
    #expect(throws: expected) { try InstanceOrigin(parsing: input) }
  }

  /// A 10 KB host name was accepted; the message does not echo it.
  @Test func hostNamesAndLabelsHaveTheirLimits() throws {
    let label = String(repeating: "a", count: 63)
    let longest = [label, label, label, String(repeating: "b", count: 61)].joined(separator: ".")
    #expect(longest.count == 253)
    #expect(try InstanceOrigin(parsing: "http://\(longest):3000").host == longest)
    #expect(try InstanceOrigin(parsing: "http://\(longest).:3000").host == longest + ".")
    #expect(throws: OriginError.hostTooLong(length: 254)) {
      try InstanceOrigin(parsing: "http://\(longest)b:3000")
    }
    let huge = String(repeating: "x", count: 10_240)
    #expect(throws: OriginError.hostTooLong(length: 10_240)) {
      try InstanceOrigin(parsing: "http://\(huge)")
    }
    #expect(!OriginError.hostTooLong(length: 10_240).description.contains("xxxx"))
    #expect(throws: OriginError.labelTooLong(label: label + "a")) {
      try InstanceOrigin(parsing: "http://\(label)a.example")
    }
    let message = OriginError.labelTooLong(label: label + "a").localizedMessage(.simplifiedChinese)
    #expect(message.contains("64") && message.contains("63") && !message.contains(label))
    // What an older version stored loads as it was written.
    #expect(try InstanceOrigin(stored: "http://\(huge)").host == huge)
    #expect(try InstanceOrigin(stored: "http://999.1.1.1:3000").host == "999.1.1.1")
  }
}
