import EssentialsTesting
import Foundation
import Testing

@testable import Essentials

@Suite struct LanguageTests {
  @Test(arguments: [
    (["LANG": "zh_CN.UTF-8"], AppLanguage.simplifiedChinese),
    (["LANG": "en_US.UTF-8"], .english),
    (["LC_ALL": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"], .simplifiedChinese),
    ([:], .english),
  ])
  func choosesFromEnvironment(environment: [String: String], expected: AppLanguage) {
    #expect(AppLanguage.fromEnvironment(environment) == expected)
  }

  @Test func parsesFlags() {
    #expect(AppLanguage(flag: "zh-Hans") == .simplifiedChinese)
    #expect(AppLanguage(flag: "EN") == .english)
    #expect(AppLanguage(flag: "fr") == nil)
  }
}

@Suite struct CatalogueTests {
  @Test func fillsPlaceholdersPerLanguage() throws {
    let catalogue = try StringCatalogue(
      jsonData: Data(#"{"hi": {"en": "Hi {name}", "zh-Hans": "你好 {name}"}}"#.utf8), origin: "t")
    #expect(catalogue.text("hi", .english, ["name": "Ann"]) == "Hi Ann")
    #expect(catalogue.text("hi", .simplifiedChinese, ["name": "Ann"]) == "你好 Ann")
    #expect(catalogue.text("missing", .english) == "missing")
  }

  @Test func aCountOfOneTakesTheSingularFormWhereALanguageHasOne() throws {
    let catalogue = try StringCatalogue(
      jsonData: Data(
        #"{"hidden": {"en": "+{count} columns hidden", "en.one": "+{count} column hidden", "zh-Hans": "另有 {count} 列未显示"}}"#
          .utf8), origin: "t")
    #expect(catalogue.text("hidden", .english, ["count": "1"]) == "+1 column hidden")
    #expect(catalogue.text("hidden", .english, ["count": "2"]) == "+2 columns hidden")
    #expect(catalogue.text("hidden", .english, ["count": "0"]) == "+0 columns hidden")
    #expect(catalogue.text("hidden", .simplifiedChinese, ["count": "1"]) == "另有 1 列未显示")
    #expect(catalogue.problems().isEmpty)
  }

  @Test func aSelectorChoosesEachCountsWordInPlace() throws {
    let catalogue = try StringCatalogue(
      jsonData: Data(
        #"{"imported": {"en": "Imported {added} {added|instance|instances} and {groups} {groups|group is|groups are} new", "zh-Hans": "导入 {added} 个实例，新建 {groups} 个分组"}}"#
          .utf8), origin: "t")
    #expect(
      catalogue.text("imported", .english, ["added": "1", "groups": "2"])
        == "Imported 1 instance and 2 groups are new")
    #expect(
      catalogue.text("imported", .english, ["added": "0", "groups": "1"])
        == "Imported 0 instances and 1 group is new")
    #expect(
      catalogue.text("imported", .simplifiedChinese, ["added": "1", "groups": "1"])
        == "导入 1 个实例，新建 1 个分组")
    // A selector is no placeholder: the languages agree, and nothing is left over.
    #expect(catalogue.problems().isEmpty)
    // A selector whose count the text does not have keeps its braces, and is reported.
    let orphan = StringCatalogue(
      entries: ["x": ["en": "{n|one|many} left", "zh-Hans": "剩余"]], origin: "t")
    #expect(orphan.problems() == ["t: x (en) keeps a brace: {n|one|many} left"])
  }

  @Test func countingWordsWithoutASingularAreRefused() {
    let catalogue = StringCatalogue(
      entries: [
        "s": ["en": "Deleted {count} record(s).", "zh-Hans": "已删除 {count} 条记录。"],
        "es": ["en": "{count} address(es) found", "zh-Hans": "找到 {count} 个地址"],
        "plural": [
          "en": "Watch started: {instances} instances", "zh-Hans": "开始监视 {instances} 个实例",
        ],
        "count": ["en": "{count} new messages", "zh-Hans": "{count} 条新短信"],
        "one": [
          "en": "{count} new messages", "en.one": "{count} new message", "zh-Hans": "{count} 条新短信",
        ],
        "selector": ["en": "{n} {n|row|rows} in {path}", "zh-Hans": "{path} 中 {n} 行"],
        "verbs": [
          "en": "{path} exists; {name} has {limit} s, {ms} ms, #{id} attempts",
          "zh-Hans": "{path} {name} {limit} {ms} {id}",
        ],
        "http": ["en": "Use http(s)://{host}", "zh-Hans": "使用 http(s)://{host}"],
      ], origin: "t")
    #expect(
      catalogue.problems() == [
        "t: count (en) has no singular for {count}: add \"en.one\" for {count}, or {count|one|other} in place",
        "t: es (en) counts with \"(s)\": give the singular (\"en.one\" for {count}, or {name|one|other} in place)",
        "t: plural (en) has no singular for {instances}: add \"en.one\" for {count}, or {instances|one|other} in place",
        "t: s (en) counts with \"(s)\": give the singular (\"en.one\" for {count}, or {name|one|other} in place)",
      ])
  }

  @Test func findsMissingLanguagesAndPlaceholderMismatches() {
    let catalogue = StringCatalogue(
      entries: ["a": ["en": "A"], "b": ["en": "{x}", "zh-Hans": "{y}"]], origin: "t")
    #expect(
      catalogue.problems() == [
        "t: a has no zh-Hans text", "t: b has different placeholders per language",
      ])
  }

  @Test func findsBracesAndDoubledPunctuationOnceRendered() {
    let catalogue = StringCatalogue(
      entries: [
        "brace": ["en": "Use {\"a\": 1}", "zh-Hans": "使用 {\"a\": 1}"],
        "doubled": ["en": "Failed: {reason}", "zh-Hans": "失败：{reason}，请重试"],
        "fine": ["en": "Failed: {reason}. {count} left", "zh-Hans": "失败：{reason}。共 {count} 条"],
      ], origin: "t")
    #expect(
      catalogue.problems() == [
        "t: brace (en) keeps a brace: Use {\"a\": 1}",
        "t: brace (zh-Hans) keeps a brace: 使用 {\"a\": 1}",
        "t: doubled (zh-Hans) renders 。，: 失败：示例值。，请重试",
      ])
  }

  @Test func aSentenceValueTakesThePlaceOfTheFullStop() {
    #expect(StringCatalogue.fill("失败：{reason}。", ["reason": "是否在运行？"]) == "失败：是否在运行？")
    #expect(StringCatalogue.fill("Failed: {reason}.", ["reason": "refused."]) == "Failed: refused.")
    #expect(StringCatalogue.fill("{n}. next", ["n": "1"]) == "1. next")
  }

  @Test func malformedCatalogueNamesItsOrigin() {
    #expect(throws: CatalogueError.self) {
      try StringCatalogue(jsonData: Data("[1]".utf8), origin: "x.json")
    }
  }

  @Test func fillsInOnePassLeavingOtherBraces() {
    #expect(StringCatalogue.fill("{a} and {b}", ["a": "{b}", "b": "B"]) == "{b} and B")
    #expect(StringCatalogue.fill("{x} {a} {", ["a": "1"]) == "{x} 1 {")
    #expect(StringCatalogue.fill("验证码 {code}，{code}", ["code": "48 21"]) == "验证码 48 21，48 21")
    #expect(StringCatalogue.fill("no placeholders", ["a": "1"]) == "no placeholders")
  }

  @Test func embeddedCatalogueIsTheSourceFile() throws {
    // The compiled-in bytes are the package's Resources/Strings.json as it is now: a string
    // added to the file reaches the program without any generated copy to refresh.
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Sources/Essentials/Resources/Strings.json").standardized
    let onDisk = try Data(contentsOf: source)
    #expect(Data(PackageResources.Strings_json) == onDisk)
    let decoded = try JSONDecoder().decode([String: [String: String]].self, from: onDisk)
    #expect(!decoded.isEmpty)
    #expect(EssentialsStrings.catalogue.entries == decoded)
    #expect(EssentialsStrings.catalogue.origin == "Essentials/Strings.json")
  }

  @Test func damagedEmbeddedCatalogueShowsKeysAndLogsOnce() throws {
    let memory = InMemoryLogHandler()
    let logger = Logger(label: "msa.catalogue", handler: memory)
    let catalogue = StringCatalogue.embedded(
      Array("{\"a\": [1]".utf8), origin: "Broken/Strings.json", logger: logger)
    #expect(memory.records.isEmpty)  // nothing is decoded before a text is asked for
    #expect(catalogue.text("fleet.added", .simplifiedChinese, ["name": "n1"]) == "fleet.added")
    #expect(catalogue.text("other", .english) == "other")
    let record = try #require(memory.records.first)
    #expect(memory.records.count == 1)
    #expect(record.level == .error)
    #expect(record.message.contains("Broken/Strings.json"))
  }

  @Test func ownCatalogueIsComplete() {
    #expect(EssentialsStrings.catalogue.problems().isEmpty)
  }
}

@Suite struct LoggerTests {
  @Test func redactsSecretsBeforeAnyHandler() throws {
    let memory = InMemoryLogHandler()
    let logger = Logger(label: "t", handler: memory, logLevel: .debug, clock: TestClock().clock)
    logger.info(
      // A made-up 43-character token, built here so no cookie-shaped literal is committed.
      "login sent Cookie: simadmin_session=" + "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG",
      metadata: ["password": "hunter2", "body": "Your code is 482913", "instance": "n1"])
    let record = try #require(memory.records.first)
    #expect(!record.line.contains("hunter2"))
    #expect(!record.line.contains("482913"))
    #expect(!record.line.contains("abcdefghijklmnop"))
    #expect(record.metadata["instance"] == "n1")
    #expect(record.metadata["password"] == Redactor.mask)
  }

  @Test func dropsRecordsBelowLevel() {
    let memory = InMemoryLogHandler()
    let logger = Logger(label: "t", handler: memory, logLevel: .warning)
    logger.info("quiet")
    logger.error("loud")
    #expect(memory.records.map(\.message) == ["loud"])
  }

  @Test func lineSortsMetadata() {
    let record = LogRecord(
      date: Date(timeIntervalSince1970: 0), level: .info, label: "l", message: "m",
      metadata: ["b": "2", "a": "1"])
    #expect(record.line == "1970-01-01T00:00:00Z info l: m a=1 b=2")
  }

  @Test(arguments: [
    ("Your code is 482913, valid 5 min", "Your code is ••••••,…"),
    ("短信验证码 4821", "短信验证码 ••••"),
    ("call 110", "call 110"),
  ])
  func masksBodies(body: String, expected: String) {
    #expect(Redactor.maskBody(body) == expected)
  }

  @Test func redactsPasswordsInText() {
    #expect(Redactor.redact(text: #"{"password":"pw1"}"#) == #"{"password":"‹redacted›"}"#)
    #expect(!Redactor.redact(text: "Authorization: Bearer xyz").contains("xyz"))
  }
}

@Suite struct RedactorPatternTests {
  @Test func everyTextPatternCompiles() {
    // The patterns are constants; a typo would silently drop a redaction rule.
    #expect(Redactor.textPatterns.count == 4)
  }

  @Test func levelsAreOrderedBySeverity() {
    #expect(LogLevel.allCases.sorted() == LogLevel.allCases)
    #expect(LogLevel.warning > .info)
  }
}
