import ViewKit

/// Sample trees shared by the renderer tests.
enum Fixtures {
  static let fleetTable = Table(
    columns: [
      TableColumn(id: "name", title: "Name", minWidth: 8, maxWidth: 24, priority: 10),
      TableColumn(id: "status", title: "Status", minWidth: 7, priority: 9),
      TableColumn(
        id: "origin", title: "Origin", minWidth: 12, maxWidth: 28, priority: 5,
        truncation: .middle),
      TableColumn(id: "phone", title: "Phone", minWidth: 11, priority: 4),
      TableColumn(id: "signal", title: "Signal", minWidth: 6, priority: 3, alignment: .trailing),
      TableColumn(id: "temp", title: "Temp", minWidth: 5, priority: 1, alignment: .trailing),
      TableColumn(id: "version", title: "Version", minWidth: 7, priority: 2),
    ],
    rows: [
      TableRow(
        id: "n1",
        cells: [
          "Shenzhen office router", TableCell("online", tone: .success),
          "http://192.168.10.1:3000", "+8613800138000", "-71 dBm", "48°C", "1.4.2",
        ]),
      TableRow(
        id: "n2",
        cells: [
          "深圳办公室短信猫", TableCell("offline", tone: .danger), "https://dongle-2.lan:3443",
          "+8613900139000", "—", "—", "1.3.0",
        ]),
      TableRow(
        id: "n3",
        cells: [
          "Lab 📶 dongle", TableCell("login", tone: .warning), "http://10.0.0.7:3000",
          "", "-95 dBm", "61°C", "1.4.2",
        ]),
    ],
    selectedID: "n2", markedIDs: ["n1", "n2"])

  /// One of every node kind, nested, with long, CJK and emoji content.
  static let everything = ViewNode.screen(
    Screen(
      title: "MultiSimAdmin — 节点 Fleet overview with a deliberately long title",
      subtitle: "3 devices · checked 2026-01-01 08:00 · 短信同步完成",
      children: [
        .banner(
          Banner(
            "Two devices are reachable over plain HTTP; passwords travel unencrypted.",
            tone: .warning)),
        .banner(Banner("同步完成，共 128 条短信。", tone: .success)),
        .section(
          Section(
            title: "Device 设备信息",
            children: [
              .keyValue(KeyValue(key: "Name", value: "Shenzhen office router")),
              .keyValue(
                KeyValue(key: "运营商", value: "中国移动 China Mobile 4G+ (LTE-A, band 3 + band 41)")),
              .keyValue(KeyValue(key: "Status", value: "online", tone: .success)),
              .keyValue(KeyValue(key: "A rather long key name", value: "x")),
            ])),
        .card(
          Card(
            title: "SIM card 🇨🇳",
            children: [
              .keyValue(KeyValue(key: "ICCID", value: "89860012345678901234")),
              .inline([
                .badge(Badge("online", tone: .success)), .badge(Badge("4G", tone: .info)),
                .text(Text("signal good", style: .muted)),
                .button(Button(title: "Test", command: "fleet test n1", role: .primary)),
                .button(Button(title: "删除", command: "fleet delete n1", role: .destructive)),
              ]),
              .card(Card(title: "Nested", children: [.text(Text("inside a card inside a card"))])),
            ])),
        .list(
          ListNode(
            items: [
              ListItem(
                id: "m1", title: "10086", subtitle: "您的验证码是 ••••••，5 分钟内有效",
                badges: [Badge("in", tone: .info)], trailing: "08:01"),
              ListItem(
                id: "m2", title: "+86 138 0013 8000 a very long peer name indeed",
                subtitle: "Meeting moved to 3pm",
                badges: [Badge("out"), Badge("failed", tone: .danger)],
                trailing: "yesterday"),
              ListItem(id: "m3", title: "👨‍👩‍👧 Family"),
            ], selectedID: "m1", markedIDs: ["m2"])),
        .table(fleetTable),
        .stack([
          .text(Text("Headline", style: .headline)),
          .text(
            Text("Body text that goes on for a while so that it has to wrap at narrow widths.")),
          .text(Text("Caption", style: .caption)),
          .text(Text("msa fleet test --all", style: .code)),
          .text(Text("Emphasis", style: .emphasis)), .text(Text("Title", style: .title)),
        ]),
        .field(FormField(id: "name", label: "Name", value: "", placeholder: "e.g. office router")),
        .field(
          FormField(
            id: "origin", label: "Origin", value: "ftp://example.com/path",
            message: "Use http:// or https:// with a host and optional port; no path.")),
        .field(FormField(id: "password", label: "密码", value: "hunter2", isSecure: true)),
        .progress(Progress(label: "Syncing messages from every device", completed: 5, total: 10)),
        .progress(Progress(label: "Scanning", completed: 3)),
        .empty(
          EmptyState(
            title: "No devices yet", message: "Add your first SimAdmin device to get started.",
            action: Button(title: "Add device", command: "fleet add", role: .primary))),
        .error(
          ErrorState(
            title: "Could not reach 10.0.0.7", message: "Connection refused (is SimAdmin running?)",
            retryCommand: "fleet test n3")),
        .section(Section(children: [.text(Text("Untitled section"))])),
      ]))
}
