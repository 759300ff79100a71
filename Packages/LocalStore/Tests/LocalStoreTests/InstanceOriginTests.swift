import Foundation
import LocalStore
import Testing

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
}
