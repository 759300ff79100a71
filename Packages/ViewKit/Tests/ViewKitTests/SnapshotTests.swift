import Essentials
import Testing
import ViewKit
import ViewKitTesting

@Suite struct SnapshotTests {
  @Test func recordModeIsOff() {
    #expect(!SnapshotRecordMode.isOn)
  }

  @Test func recordModeFollowsTheEnvironment() {
    #expect(SnapshotRecordMode.isOn(environment: ["SNAPSHOT_RECORD": "1"]))
    #expect(!SnapshotRecordMode.isOn(environment: ["SNAPSHOT_RECORD": "0"]))
    #expect(!SnapshotRecordMode.isOn(environment: [:]))
  }

  @Test func mismatchRecordsAnIssue() {
    withKnownIssue {
      assertSnapshot(of: "not the table", named: "fleetTable.40")
    }
  }

  @Test(arguments: [40, 80, 120])
  func fleetTable(width: Int) {
    assertSnapshot(
      of: TextRenderer.render(.table(Fixtures.fleetTable), options: RenderOptions(width: width)),
      named: "fleetTable.\(width)")
  }

  @Test(arguments: [40, 80])
  func everything(width: Int) {
    assertSnapshot(
      of: TextRenderer.render(Fixtures.everything, options: RenderOptions(width: width)),
      named: "everything.\(width)")
  }

  @Test func chineseScreen() {
    let node = ViewNode.screen(
      Screen(
        title: "短信", subtitle: "全部设备的短信归档",
        children: [
          .list(
            ListNode(items: [
              ListItem(
                id: "1", title: "10086", subtitle: "【中国移动】您的验证码为 ••••••，请勿泄露。",
                badges: [Badge("收", tone: .info)], trailing: "08:01"),
              ListItem(id: "2", title: "妈妈", subtitle: "晚上回家吃饭吗？", trailing: "昨天"),
            ])),
          .table(
            Table(
              columns: [
                TableColumn(id: "peer", title: "对方号码", minWidth: 8, priority: 3),
                TableColumn(id: "body", title: "内容", minWidth: 10, priority: 2),
                TableColumn(id: "time", title: "时间", minWidth: 5, priority: 1),
              ],
              rows: [
                TableRow(id: "1", cells: ["10086", "您的验证码为 ••••••，五分钟内有效。", "08:01"]),
                TableRow(id: "2", cells: ["+8613800138000", "好的", "昨天"]),
              ])),
          .error(ErrorState(title: "无法连接", message: "连接被拒绝", retryCommand: "messages sync")),
        ]))
    for width in [20, 40] {
      assertSnapshot(
        of: TextRenderer.render(
          node, options: RenderOptions(width: width, language: .simplifiedChinese)),
        named: "chineseScreen.\(width)")
    }
  }
}

@Suite struct LineDiffTests {
  @Test func marksRemovedAndAddedLines() {
    #expect(
      LineDiff.render(expected: "a\nb\nc", actual: "a\nx\nc") == "  a\n− b\n+ x\n  c")
  }
}
