import Foundation
import LocalStoreTesting
import Testing

@testable import LocalStore

@Suite struct DataDirectoryTests {
  @Test func homeFlagWinsOverEnvironment() throws {
    let url = try DataDirectory.resolve(
      homeFlag: "/srv/msa", environment: ["MSA_HOME": "/env/msa", "HOME": "/home/u"])
    #expect(url.path == "/srv/msa")
  }

  @Test func msaHomeWinsOverConvention() throws {
    let url = try DataDirectory.resolve(
      homeFlag: nil, environment: ["MSA_HOME": "/env/msa", "XDG_DATA_HOME": "/xdg"])
    #expect(url.path == "/env/msa")
  }

  @Test func tildeAndRelativePathsBecomeAbsolute() throws {
    let tilde = try DataDirectory.resolve(homeFlag: "~/data", environment: ["HOME": "/home/u"])
    #expect(tilde.path == "/home/u/data")
    let relative = try DataDirectory.resolve(homeFlag: "rel/dir", environment: [:])
    #expect(relative.path.hasPrefix("/"))
    #expect(relative.path.hasSuffix("/rel/dir"))
  }

  @Test func emptyValuesAreRefusedOrIgnored() throws {
    #expect(throws: DataDirectoryError.emptyHomeFlag) {
      try DataDirectory.resolve(homeFlag: "  ", environment: [:])
    }
    #expect(throws: DataDirectoryError.noHomeDirectory) {
      try DataDirectory.resolve(homeFlag: nil, environment: ["MSA_HOME": ""])
    }
  }

  /// The blanks trimmed off `--home` and `MSA_HOME` are Foundation's `.whitespaces` trimmed,
  /// with or without the shortcut for a path that starts and ends with other ASCII.
  @Test func blanksAreTrimmedAsFoundationTrimsThem() {
    let texts = [
      "/tmp/home", " /tmp/home", "/tmp/home ", "\t/tmp/home\t", "  ", "", "a", " ", "\u{3000}/x",
      "/x\u{3000}", "\u{A0}/x\u{A0}", "/x\n", "\n/x", "/数据", "数据/", "/x\u{2003}", "~/msa",
      "/x\u{301}", "\u{200B}/x",
    ]
    for text in texts {
      #expect(DataDirectory.trimmingBlanks(text) == text.trimmingCharacters(in: .whitespaces))
    }
  }

  #if os(Linux)
    @Test func linuxConventionUsesXDGThenLocalShare() throws {
      let xdg = try DataDirectory.resolve(
        homeFlag: nil, environment: ["XDG_DATA_HOME": "/xdg", "HOME": "/home/u"])
      #expect(xdg.path == "/xdg/multisimadmin")
      let fallback = try DataDirectory.resolve(
        homeFlag: nil, environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/u"])
      #expect(fallback.path == "/home/u/.local/share/multisimadmin")
    }
  #elseif os(macOS)
    @Test func macConventionUsesApplicationSupport() throws {
      let url = try DataDirectory.resolve(homeFlag: nil, environment: ["HOME": "/Users/u"])
      #expect(url.path == "/Users/u/Library/Application Support/MultiSimAdmin")
    }
  #endif

  @Test func prepareCreatesTheDirectoryWithMode0700() throws {
    let parent = try TemporaryDirectory()
    let target = parent.url.appendingPathComponent("a/b/msa")
    try DataDirectory.prepare(target)
    let attributes = try FileManager.default.attributesOfItem(atPath: target.path)
    #expect(attributes[.posixPermissions] as? Int == 0o700)
    let file = parent.file("plain")
    _ = FileManager.default.createFile(atPath: file.path, contents: Data())
    #expect(throws: DataDirectoryError.notADirectory(path: file.path)) {
      try DataDirectory.prepare(file)
    }
  }
}
