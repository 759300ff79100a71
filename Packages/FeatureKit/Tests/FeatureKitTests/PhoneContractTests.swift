import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import Testing

@Suite("The phone contract")
struct PhoneContractTests {
  @Test(arguments: [
    ("使用以下命令添加：msa fleet add …", "msa "),
    ("更多：--after m1abc", "--after"),
    ("按 v 显示正文", "按 v"),
    ("Press v to show bodies", "Press v"),
    ("Raise the open-file limit (ulimit -n) or lower it", "ulimit"),
  ])
  func terminalWordsAreFound(text: String, word: String) {
    #expect(PhoneWording.terminalWord(in: text) == word)
  }

  @Test(arguments: [
    "Tap + to add a device, like http://192.168.1.1:3000.", "G-482913 is your code",
    "Pressure 3 hPa", "点 + 按地址添加设备", "Offline · timed out", "2026-01-01 19:00",
  ])
  func ordinaryWordsAreNot(text: String) {
    #expect(PhoneWording.terminalWord(in: text) == nil)
  }

  @Test func aTerminalMessageIsCutBeforeItsAdvice() {
    #expect(
      PhoneWording.plain("No group named Lab; create it with: msa groups add Lab", fallback: "x")
        == "No group named Lab.")
    #expect(
      PhoneWording.plain("没有名为 Lab 的分组；请先创建：msa groups add Lab", fallback: "x")
        == "没有名为 Lab 的分组。")
    #expect(
      PhoneWording.plain("Pass --yes.", fallback: "Something went wrong.")
        == "Something went wrong.")
    #expect(PhoneWording.plain("Timed out: no answer.", fallback: "x") == "Timed out: no answer.")
  }

  @Test func oneLinePlacesAreMeasuredAndWrappingOnesAreNot() {
    #expect(PhoneFit.problem(PhoneText("Save", .toolbar)) == nil)
    #expect(PhoneFit.problem(PhoneText("Send every waiting message now", .toolbar)) != nil)
    #expect(PhoneFit.problem(PhoneText(String(repeating: "很长的文字", count: 40), .body)) == nil)
    #expect(PhoneFit.problem(PhoneText(String(repeating: "名", count: 20), .badge)) != nil)
    // Chinese characters are one em, Latin lower case about half of one.
    #expect(
      PhoneFit.width(of: "节点", fontSize: 10) > PhoneFit.width(of: "ab", fontSize: 10) * 1.5)
  }

  @Test func theOutlineSaysEveryStringOnceAndItsLines() {
    let outline = PhoneOutline(
      title: PhoneText("Nodes", .title), status: [PhoneText("Loading…")],
      sections: [PhoneOutline.Section("Status", rows: [.pair("Reason", "timed out")])],
      actions: [PhoneText("Add", .toolbar)],
      inputs: [PhoneOutline.Input("Password", value: "s3cret", kind: "secure")],
      notice: PhoneText("Added"),
      dialog: PhoneOutline.Dialog("Remove 1 device?", buttons: ["Remove", "Cancel"]))
    #expect(
      outline.lines == [
        "title: Nodes", "status: Loading…", "section: Status", "  - Reason: timed out",
        "input (secure): Password = ••••••", "actions: [Add]", "notice: Added",
        "dialog: Remove 1 device?  [Remove] [Cancel]",
      ])
    #expect(!outline.lines.joined().contains("s3cret"))
    #expect(outline.texts.map(\.text).contains("Cancel"))
  }

  @Test func filesAreNamedWhereTheFilesAppShowsThem() {
    let documents = URL(fileURLWithPath: "/sandbox/Documents")
    let context = PhoneContext(
      environment: .test(language: .simplifiedChinese),
      timeZone: TimeZone(identifier: "Asia/Tokyo")!,
      documents: documents, run: { _, _ in throw CancellationError() }, navigate: { _ in },
      canOpen: { _ in false })
    #expect(
      context.filesLocation(of: documents.appendingPathComponent("Exports/logs.csv"))
        == "文件 › 我的 iPhone › MultiSimAdmin › Exports › logs.csv")
    // The test clock's 2026-01-01 00:00 UTC is 09:00 in Tokyo.
    #expect(context.fullTime(context.now) == "2026-01-01 09:00:00")
    #expect(context.fileStamp == "20260101-090000")
  }

  @Test func aNewFileNeverReplacesOne() throws {
    let documents = FileManager.default.temporaryDirectory
      .appendingPathComponent("phone-files-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: documents) }
    let context = PhoneContext(
      environment: .test(), timeZone: TimeZone(identifier: "UTC")!, documents: documents,
      run: { _, _ in throw CancellationError() }, navigate: { _ in }, canOpen: { _ in false })
    let first = try context.newFile(in: "Exports", named: "logs", extension: "csv")
    #expect(first.lastPathComponent == "logs-20260101-000000.csv")
    try Data("x".utf8).write(to: first)
    let second = try context.newFile(in: "Exports", named: "logs", extension: "csv")
    #expect(second.lastPathComponent == "logs-20260101-000000-2.csv")
  }

  @Test func theCatalogueHasEveryPhoneStringInBothLanguages() {
    #expect(FeatureKitStrings.catalogue.problems().isEmpty)
  }
}
