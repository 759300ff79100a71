import CommandLineKit
import Essentials
import Foundation
import Testing

@Suite struct JSONOutputTests {
  struct Row: Encodable {
    var zeta: String
    var alpha: Int
    var seen: Date
    var url: String
  }

  @Test func rendersSortedPrettyEnvelopeWithISODatesAndTrailingNewline() throws {
    let row = Row(
      zeta: "z", alpha: 1, seen: Date(timeIntervalSince1970: 1_767_225_600), url: "http://a/b")
    let text = try JSONOutput.render(command: "fleet list", data: [row])
    let expected = """
      {
        "command" : "fleet list",
        "data" : [
          {
            "alpha" : 1,
            "seen" : "2026-01-01T00:00:00Z",
            "url" : "http://a/b",
            "zeta" : "z"
          }
        ],
        "schemaVersion" : 1
      }

      """
    #expect(text == expected)
  }

  @Test func controlsAreEscapedAndTheContentKept() throws {
    let hostile =
      "a\u{1B}[2J\u{1B}]52;c;aGFja2Vk\u{07}\u{1B}]0;t\u{07}\u{08}\r\u{7F}\u{9B}31m\u{202E}\u{2066}b\nc"
    let text = try JSONOutput.render(command: "messages show", data: ["body": hostile])
    for byte in text.utf8 { #expect(byte >= 0x20 || byte == 0x0A, "raw byte \(byte)") }
    for scalar in text.unicodeScalars {
      #expect(!UntrustedText.isControl(scalar) || scalar == "\n", "raw \(scalar.value)")
    }
    #expect(text.contains(#"\u202e"#) && text.contains(#"\u009b"#) && text.contains(#"\u007f"#))
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect((object["data"] as? [String: String])?["body"] == hostile)
  }

  @Test func schemaVersionCanBeRaised() throws {
    let text = try JSONOutput.render(command: "about", data: ["k": "v"], schemaVersion: 3)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(object["schemaVersion"] as? Int == 3)
    #expect(object["command"] as? String == "about")
    #expect((object["data"] as? [String: String]) == ["k": "v"])
  }

  @Test func rendersErrorsWithTheirMachineCode() throws {
    let text = try JSONOutput.renderError(
      command: "fleet add", message: "Name is empty.", code: "invalidName")
    #expect(
      text == """
        {
          "command" : "fleet add",
          "error" : {
            "code" : "invalidName",
            "message" : "Name is empty."
          },
          "schemaVersion" : 1
        }

        """)
  }

  @Test func rendersUsageErrorsInTheChosenLanguage() throws {
    let error = try #require(SampleTree.error("fleet show"))
    let text = try JSONOutput.renderError(
      command: "fleet show", usageError: error, language: .simplifiedChinese)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let body = try #require(object["error"] as? [String: Any])
    #expect(body["code"] as? String == "missingArgument")
    #expect(body["message"] as? String == "缺少必需的参数 '<ref>'。")
  }
}

@Suite struct ExitCodeTests {
  @Test func valuesMatchArgumentParser() {
    #expect(ExitCode.success.rawValue == 0)
    #expect(ExitCode.failure.rawValue == 1)
    #expect(ExitCode.usage.rawValue == 64)
    #expect(ExitCode(rawValue: 64) == .usage)
  }
}

@Suite struct CatalogueTests {
  @Test func everyKeyHasBothLanguages() {
    #expect(CommandLineKitStrings.catalogue.problems().isEmpty)
    #expect(!CommandLineKitStrings.catalogue.entries.isEmpty)
  }

  @Test func sampleCatalogueIsComplete() {
    #expect(SampleTree.catalogue.problems().isEmpty)
  }
}
