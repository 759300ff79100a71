import Essentials
import Testing

@testable import SimAdminSimulator

@Suite("FaultSpec parsing")
struct FaultSpecTests {
  @Test func parsesTheDocumentedExample() throws {
    let rules = try FaultSpec.parse("3=hang,5=latency:200,7=down,2=hang@/api/stats", deviceCount: 8)
    #expect(rules[3] == [FaultRule(.hang)])
    #expect(rules[5] == [FaultRule(.latency(milliseconds: 200))])
    #expect(rules[7] == [FaultRule(.down)])
    #expect(rules[2] == [FaultRule(.hang, pathPrefix: "/api/stats")])
    #expect(rules[1] == nil)
  }

  @Test func wildcardGivesEveryDeviceTheFault() throws {
    let rules = try FaultSpec.parse("*=latency:50,2=hang@/api/stats", deviceCount: 4)
    #expect(rules.keys.sorted() == [1, 2, 3, 4])
    for index in [1, 3, 4] {
      #expect(rules[index] == [FaultRule(.latency(milliseconds: 50))])
    }
    #expect(
      rules[2] == [
        FaultRule(.latency(milliseconds: 50)), FaultRule(.hang, pathPrefix: "/api/stats"),
      ])
    #expect(throws: FaultSpecError.badIndex(item: "*=hang", index: "*")) {
      try FaultSpec.parse("*=hang", deviceCount: 0)
    }
    #expect(throws: FaultSpecError.badIndex(item: "**=hang", index: "**")) {
      try FaultSpec.parse("**=hang", deviceCount: 3)
    }
  }

  @Test func parsesEveryFaultKind() throws {
    let spec =
      "1=latency:100:50,1=reset,2=500,2=malformed,3=oversized:9000,3=slow:100,4=html,"
      + "4=redirect:http://127.0.0.1:9@/api/sms, 5 = down,5=hostile,1=hostile-text@/api/sms"
    let rules = try FaultSpec.parse(spec, deviceCount: 5)
    #expect(
      rules[1] == [
        FaultRule(.latency(milliseconds: 100, jitter: 50)), FaultRule(.reset),
        FaultRule(.hostileText, pathPrefix: "/api/sms"),
      ])
    #expect(rules[2] == [FaultRule(.serverError), FaultRule(.malformedJSON)])
    #expect(
      rules[3] == [FaultRule(.oversized(bytes: 9000)), FaultRule(.slowBody(bytesPerSecond: 100))])
    #expect(
      rules[4] == [
        FaultRule(.wrongContentType),
        FaultRule(.redirect(to: "http://127.0.0.1:9"), pathPrefix: "/api/sms"),
      ])
    #expect(rules[5] == [FaultRule(.down), FaultRule(.hostileText)])
    #expect(try FaultSpec.parse("  ", deviceCount: 3).isEmpty)
    #expect(
      try FaultSpec.parse(
        "1=absurd,2=absurd:-1e308@/api/stats,3=absurd-numbers:\"NaN\"", deviceCount: 3)
        == [
          1: [FaultRule(.absurdNumbers(text: "1e308"))],
          2: [FaultRule(.absurdNumbers(text: "-1e308"), pathPrefix: "/api/stats")],
          3: [FaultRule(.absurdNumbers(text: "\"NaN\""))],
        ])
  }

  @Test(arguments: [
    ("1=hang,,2=reset", FaultSpecError.emptyItem(spec: "1=hang,,2=reset")),
    ("hang", .missingEquals(item: "hang")),
    ("x=hang", .badIndex(item: "x=hang", index: "x")),
    ("9=hang", .indexOutOfRange(item: "9=hang", index: 9, deviceCount: 3)),
    ("0=hang", .indexOutOfRange(item: "0=hang", index: 0, deviceCount: 3)),
    ("1=explode", .unknownFault(item: "1=explode", fault: "explode")),
    ("1=latency", .missingArgument(item: "1=latency", fault: "latency")),
    ("1=latency:-5", .badArgument(item: "1=latency:-5", argument: "-5")),
    ("1=oversized:lots", .badArgument(item: "1=oversized:lots", argument: "lots")),
    ("1=hang:3", .unexpectedArgument(item: "1=hang:3", fault: "hang")),
    ("1=hang@api", .badPathPrefix(item: "1=hang@api", prefix: "api")),
    ("1=redirect:ftp://x", .badArgument(item: "1=redirect:ftp://x", argument: "ftp://x")),
    ("1=absurd:", .badArgument(item: "1=absurd:", argument: "")),
  ])
  func errorsNameTheBadPart(spec: String, expected: FaultSpecError) {
    #expect(throws: expected) { try FaultSpec.parse(spec, deviceCount: 3) }
  }

  @Test func errorMessagesExistInBothLanguages() {
    let error = FaultSpecError.unknownFault(item: "1=explode", fault: "explode")
    #expect(error.description.contains("explode"))
    #expect(error.localizedMessage(.simplifiedChinese).contains("未知故障"))
    #expect(error.localizedMessage(.simplifiedChinese).contains("explode"))
  }
}
