import Essentials
import Foundation
import SimAdminClient
import ViewKit

/// The views of the device routes: pure functions of a ``DeviceReport`` and a ``ViewContext``.
///
/// Every section is framed the same way: its state (loading, empty, login required, no
/// permission, not supported, timeout, upstream error, failure) or its content, then a muted
/// "fetched at HH:mm:ss · N ago" line. Identifiers are in full here and masked in the overview.
public enum DeviceViews {
  // MARK: - Screens

  /// The overview: one row per section with its status and a one-line summary; each row
  /// opens `device/<ref>/<section>`.
  public static func overview(_ report: DeviceReport, _ context: ViewContext) -> ViewNode {
    let columns = [
      TableColumn(id: "section", title: context.text("column.section"), minWidth: 6, priority: 3),
      TableColumn(id: "status", title: context.text("column.status"), minWidth: 6, priority: 2),
      TableColumn(id: "summary", title: context.text("column.summary"), minWidth: 10, priority: 0),
      TableColumn(
        id: "fetched", title: context.text("column.fetched"), minWidth: 10, priority: 1,
        alignment: .trailing),
    ]
    let rows = report.sections.map { state in
      TableRow(
        id: state.section.rawValue,
        cells: [
          TableCell(state.section.title(context.language)),
          TableCell(state.status.label(context.language), tone: state.status.tone),
          TableCell(summary(state, context)),
          TableCell(
            state.fetchedAt.map { DeviceFormat.age(of: $0, now: context.now, context.language) }
              ?? "—", tone: .muted),
        ],
        link: state.section.route(ref: context.ref))
    }
    return .screen(
      Screen(
        title: context.text("screen.overview", ["name": report.instance.name]),
        subtitle: report.instance.origin,
        children: [.table(Table(columns: columns, rows: rows))]))
  }

  /// One section on its own screen.
  public static func sectionScreen(
    _ state: SectionState, instance: DeviceTarget, _ context: ViewContext
  ) -> ViewNode {
    .screen(
      Screen(
        title: context.text(
          "screen.section",
          ["section": state.section.title(context.language), "name": instance.name]),
        subtitle: instance.origin,
        children: [section(state, context)]))
  }

  /// Every section of a report in full, one after another (`--all-sections`).
  public static func allSections(_ report: DeviceReport, _ context: ViewContext) -> ViewNode {
    .screen(
      Screen(
        title: context.text("screen.overview", ["name": report.instance.name]),
        subtitle: report.instance.origin,
        children: report.sections.map { section($0, context) }))
  }

  /// One section: its title, its state or content, and when it was fetched.
  public static func section(_ state: SectionState, _ context: ViewContext) -> ViewNode {
    var children: [ViewNode] = []
    if let content = state.content, state.status == .loaded {
      children += body(content, context)
    } else {
      children.append(stateNode(state, context))
    }
    if let fetchedAt = state.fetchedAt {
      children.append(
        .text(
          Text(
            context.text(
              "fetched.line",
              [
                "time": DeviceFormat.time(fetchedAt, timeZone: context.timeZone),
                "age": DeviceFormat.age(of: fetchedAt, now: context.now, context.language),
              ]), style: .muted)))
    }
    return .section(Section(title: state.section.title(context.language), children: children))
  }

  /// The node of a section that has no content to show.
  public static func stateNode(_ state: SectionState, _ context: ViewContext) -> ViewNode {
    let language = context.language
    let title = state.status.label(language)
    let message = state.status.message(language) ?? ""
    let retry = "device \(context.ref) \(state.section.rawValue)"
    switch state.status {
    case .loading:
      return .text(Text(context.text("status.loading.message"), style: .muted))
    case .loaded, .empty, .notSupported:
      return .empty(EmptyState(title: title, message: message))
    case .loginRequired, .passwordNotSet, .noPermission, .timeout, .upstream, .failed:
      return .error(ErrorState(title: title, message: message, retryCommand: retry))
    }
  }

  // MARK: - Summaries (overview, masked)

  /// The overview's one line for a section: its key values, identifiers masked.
  public static func summary(_ state: SectionState, _ context: ViewContext) -> String {
    guard let content = state.content, state.status == .loaded else {
      return state.status.message(context.language) ?? ""
    }
    let language = context.language
    switch content {
    case .device(let info):
      return join([
        join([info.manufacturer, info.model], " "),
        "IMEI " + DeviceFormat.maskIdentifier(info.imei),
      ])
    case .sim(let info):
      guard info.present else { return context.text("sim.absent") }
      return join([
        info.operatorName, "ICCID " + DeviceFormat.maskIdentifier(info.iccid),
        "IMSI " + DeviceFormat.maskIdentifier(info.imsi),
      ])
    case .cellular(let snapshot):
      return join([
        registration(snapshot.network.registrationStatus, language),
        snapshot.cells?.servingCell?.tech ?? "",
        DeviceFormat.signal(percent: snapshot.network.signalStrength, dBm: snapshot.servingRSRP),
      ])
    case .resources(let stats):
      var parts: [String] = []
      if let memory = stats.memory {
        parts.append(
          context.text(
            "summary.memory",
            [
              "used": DeviceFormat.bytes(memory.usedBytes),
              "total": DeviceFormat.bytes(memory.totalBytes),
            ]))
      }
      if let uptime = stats.uptime {
        parts.append(
          context.text(
            "summary.uptime", ["uptime": DeviceFormat.uptime(uptime.uptimeSeconds, language)]))
      }
      if let hottest = stats.maxTemperature { parts.append(DeviceFormat.temperature(hottest)) }
      return join(parts)
    case .cpu(let info):
      return join([
        context.text("summary.cores", ["count": DeviceFormat.count(info.coreCount)]),
        info.modelName.isEmpty ? info.hardware : info.modelName,
      ])
    case .connection(let snapshot):
      var parts = [
        probeSummary("IPv4", snapshot.connectivity.ipv4, context),
        probeSummary("IPv6", snapshot.connectivity.ipv6, context),
      ]
      if let data = snapshot.data {
        parts.append(context.text(data.active ? "summary.dataOn" : "summary.dataOff"))
      }
      return join(parts)
    case .sms(let snapshot):
      var parts = [context.text("summary.messages", ["count": String(snapshot.messages.count)])]
      if let newest = snapshot.messages.first {
        parts.append(context.text("summary.latest", ["peer": newest.phoneNumber]))
      }
      return join(parts)
    }
  }

  // MARK: - Section bodies (detail, identifiers in full)

  static func body(_ content: SectionContent, _ context: ViewContext) -> [ViewNode] {
    switch content {
    case .device(let info): deviceBody(info, context)
    case .sim(let info): simBody(info, context)
    case .cellular(let snapshot): cellularBody(snapshot, context)
    case .resources(let stats): resourcesBody(stats, context)
    case .cpu(let info): cpuBody(info, context)
    case .connection(let snapshot): connectionBody(snapshot, context)
    case .sms(let snapshot): smsBody(snapshot, context)
    }
  }

  static func deviceBody(_ info: DeviceInfo, _ context: ViewContext) -> [ViewNode] {
    let language = context.language
    return [
      row(context, "field.imei", DeviceFormat.identifier(info.imei)),
      row(context, "field.manufacturer", dash(info.manufacturer)),
      row(context, "field.model", dash(info.model)),
      row(context, "field.revision", dash(info.revision ?? "")),
      row(
        context, "field.online", DeviceFormat.yesNo(info.online, language),
        tone: info.online ? .success : .warning),
      row(
        context, "field.powered", DeviceFormat.yesNo(info.powered, language),
        tone: info.powered ? .success : .warning),
    ]
  }

  static func simBody(_ info: SimInfo, _ context: ViewContext) -> [ViewNode] {
    let language = context.language
    guard info.present else {
      return [.empty(EmptyState(title: context.text("sim.absent")))]
    }
    func retries(_ value: Int64?) -> String { DeviceFormat.count(value) }
    var nodes: [ViewNode] = [
      row(context, "field.present", DeviceFormat.yesNo(info.present, language), tone: .success),
      row(context, "field.iccid", DeviceFormat.identifier(info.iccid)),
      row(context, "field.imsi", DeviceFormat.identifier(info.imsi)),
      row(
        context, "field.numbers",
        info.phoneNumbers.isEmpty ? "—" : info.phoneNumbers.joined(separator: ", ")),
      row(context, "field.smsCenter", dash(info.smsCenter)),
      row(context, "field.mccMnc", join([info.mcc, info.mnc], " / ")),
      row(context, "field.operator", dash(info.operatorName)),
      row(
        context, "field.registeredOperator",
        join([info.registeredOperatorName, info.registeredOperatorCode], " · ")),
      row(
        context, "field.lockStatus", dash(info.lockStatus),
        tone: ["", "none"].contains(info.lockStatus.lowercased()) ? nil : .warning),
      row(
        context, "field.pinPuk",
        "PIN1 \(retries(info.pin1Retries)) · PUK1 \(retries(info.puk1Retries)) · "
          + "PIN2 \(retries(info.pin2Retries)) · PUK2 \(retries(info.puk2Retries))"),
      row(context, "field.simType", dash(info.simType)),
    ]
    if !info.esimStatus.isEmpty { nodes.append(row(context, "field.esimStatus", info.esimStatus)) }
    return nodes
  }

  static func cellularBody(_ snapshot: CellularSnapshot, _ context: ViewContext) -> [ViewNode] {
    let network = snapshot.network
    var nodes: [ViewNode] = [
      row(context, "field.operator", dash(network.operatorName)),
      row(
        context, "field.registration", registration(network.registrationStatus, context.language),
        tone: network.isRegistered ? .success : .warning),
      row(context, "field.technology", dash(network.technologyPreference)),
      row(
        context, "field.signal",
        DeviceFormat.signal(percent: network.signalStrength, dBm: snapshot.servingRSRP),
        tone: DeviceFormat.signalLevel(percent: network.signalStrength, dBm: snapshot.servingRSRP)
          .map { $0 >= 40 ? .success : .warning }),
    ]
    if let serving = snapshot.cells?.servingCell {
      nodes.append(
        row(
          context, "field.servingCell",
          join(
            [
              serving.tech, "ID " + dash(cellID(serving.cellID)),
              "TAC " + dash(cellID(serving.tac)),
            ],
            " · ")))
    }
    guard let cells = snapshot.cells else {
      nodes.append(
        row(
          context, "field.cells", snapshot.cellsStatus.message(context.language) ?? "—",
          tone: snapshot.cellsStatus.tone))
      return nodes
    }
    guard !cells.cells.isEmpty else {
      nodes.append(row(context, "field.cells", context.text("cells.none")))
      return nodes
    }
    func metric(_ value: Double?) -> TableCell {
      TableCell(value.map { DeviceFormat.number($0, .decibels) } ?? "—")
    }
    let columns = [
      TableColumn(id: "tech", title: context.text("column.tech"), minWidth: 3, priority: 5),
      TableColumn(
        id: "cell", title: context.text("column.cellID"), minWidth: 6, priority: 2,
        truncation: .middle),
      TableColumn(id: "band", title: context.text("column.band"), minWidth: 3, priority: 4),
      TableColumn(id: "arfcn", title: "ARFCN", minWidth: 5, priority: 1, alignment: .trailing),
      TableColumn(id: "pci", title: "PCI", minWidth: 3, priority: 3, alignment: .trailing),
      TableColumn(id: "rsrp", title: "RSRP", minWidth: 5, priority: 5, alignment: .trailing),
      TableColumn(id: "rsrq", title: "RSRQ", minWidth: 4, priority: 2, alignment: .trailing),
      TableColumn(id: "sinr", title: "SINR", minWidth: 4, priority: 3, alignment: .trailing),
    ]
    let rows = cells.cells.enumerated().map { index, cell in
      TableRow(
        id: "\(index)-\(cell.tech)-\(cell.cellID)-\(cell.pci)",
        cells: [
          TableCell(
            cell.isServing ? "\(cell.tech)*" : cell.tech, tone: cell.isServing ? .success : nil),
          TableCell(dash(cellID(cell.cellID))), TableCell(dash(band(cell))),
          TableCell(dash(cell.arfcn)), TableCell(dash(cell.pci)),
          metric(cell.rsrp), metric(cell.rsrq), metric(cell.sinr),
        ])
    }
    nodes.append(.table(Table(columns: columns, rows: rows)))
    nodes.append(.text(Text(context.text("cells.legend"), style: .caption)))
    return nodes
  }

  /// A cell id or TAC as sent (an integer); `0` is SimAdmin's "unknown".
  static func cellID(_ text: String) -> String {
    text == "0" ? "" : text
  }

  /// The band alone (`B3`, `n78`) from either form SimAdmin sends; the raw text otherwise.
  static func band(_ cell: CellsInfo.Cell) -> String {
    cell.bandInfo.label ?? cell.band
  }

  static func resourcesBody(_ stats: SystemStats, _ context: ViewContext) -> [ViewNode] {
    let language = context.language
    var nodes: [ViewNode] = []
    if let memory = stats.memory {
      nodes.append(
        row(
          context, "field.memory",
          context.text(
            "value.memory",
            [
              "used": DeviceFormat.bytes(memory.usedBytes),
              "total": DeviceFormat.bytes(memory.totalBytes),
              "percent": DeviceFormat.percent(memory.usedPercent),
            ]), tone: (DeviceReading.percent.checked(memory.usedPercent) ?? 0) >= 90 ? .danger : nil
        ))
      nodes.append(
        row(
          context, "field.memoryCache",
          join(
            [DeviceFormat.bytes(memory.cachedBytes), DeviceFormat.bytes(memory.buffersBytes)], " / "
          )
        ))
    }
    if let load = stats.cpuLoad {
      nodes.append(
        row(
          context, "field.load",
          [load.load1, load.load5, load.load15].map(Self.loadAverage).joined(separator: "  ")
            + " · " + context.text("summary.cores", ["count": DeviceFormat.count(load.coreCount)])))
    }
    if let uptime = stats.uptime {
      nodes.append(
        row(context, "field.uptime", DeviceFormat.uptime(uptime.uptimeSeconds, language)))
    }
    if let system = stats.systemInfo {
      nodes.append(
        row(context, "field.system", join([system.sysname, system.release, system.machine], " ")))
    }
    for zone in stats.temperatures {
      let name = zone.label.isEmpty ? (zone.type.isEmpty ? zone.zone : zone.type) : zone.label
      nodes.append(
        .keyValue(
          KeyValue(
            key: context.text("field.temperature", ["zone": name]),
            value: zone.temperature.map(DeviceFormat.temperature) ?? "—",
            tone: (DeviceReading.celsius.checked(zone.temperature) ?? 0) >= 75 ? .danger : nil)))
    }
    if !stats.disks.isEmpty {
      let columns = [
        TableColumn(id: "mount", title: context.text("column.mount"), minWidth: 5, priority: 3),
        TableColumn(
          id: "used", title: context.text("column.used"), minWidth: 6, priority: 2,
          alignment: .trailing),
        TableColumn(
          id: "total", title: context.text("column.total"), minWidth: 6, priority: 1,
          alignment: .trailing),
        TableColumn(
          id: "percent", title: "%", minWidth: 5, priority: 2, alignment: .trailing),
        TableColumn(id: "fs", title: context.text("column.fs"), minWidth: 4, priority: 0),
      ]
      let rows = stats.disks.map { disk in
        TableRow(
          id: disk.mountPoint,
          cells: [
            TableCell(disk.mountPoint), TableCell(DeviceFormat.bytes(disk.usedBytes)),
            TableCell(DeviceFormat.bytes(disk.totalBytes)),
            TableCell(
              DeviceFormat.percent(disk.usedPercent),
              tone: (DeviceReading.percent.checked(disk.usedPercent) ?? 0) >= 90 ? .danger : nil),
            TableCell(disk.fsType),
          ])
      }
      nodes.append(.table(Table(columns: columns, rows: rows)))
    }
    if let speed = stats.networkSpeed, !speed.interfaces.isEmpty {
      let columns = [
        TableColumn(id: "iface", title: context.text("column.interface"), minWidth: 5, priority: 3),
        TableColumn(
          id: "rx", title: context.text("column.rxRate"), minWidth: 8, priority: 2,
          alignment: .trailing),
        TableColumn(
          id: "tx", title: context.text("column.txRate"), minWidth: 8, priority: 2,
          alignment: .trailing),
        TableColumn(
          id: "totalRx", title: context.text("column.totalRx"), minWidth: 8, priority: 1,
          alignment: .trailing),
        TableColumn(
          id: "totalTx", title: context.text("column.totalTx"), minWidth: 8, priority: 0,
          alignment: .trailing),
      ]
      let rows = speed.interfaces.map { entry in
        TableRow(
          id: entry.interface,
          cells: [
            TableCell(entry.interface), TableCell(DeviceFormat.rate(entry.rxBytesPerSec)),
            TableCell(DeviceFormat.rate(entry.txBytesPerSec)),
            TableCell(DeviceFormat.bytes(entry.totalRxBytes)),
            TableCell(DeviceFormat.bytes(entry.totalTxBytes)),
          ])
      }
      nodes.append(.table(Table(columns: columns, rows: rows)))
    }
    return nodes
  }

  /// A load average with two decimals (`0.42`); unknown outside ``DeviceReading/loadAverage``.
  static func loadAverage(_ value: Double) -> String {
    DeviceReading.loadAverage.checked(value).map { String(format: "%.2f", $0) }
      ?? DeviceFormat.unknown
  }

  static func cpuBody(_ info: CPUInfo, _ context: ViewContext) -> [ViewNode] {
    var nodes: [ViewNode] = [
      row(context, "field.cpuModel", dash(info.modelName)),
      row(context, "field.hardware", dash(info.hardware)),
      row(context, "field.cores", DeviceFormat.count(info.coreCount)),
      row(context, "field.serial", DeviceFormat.identifier(info.serial)),
    ]
    guard !info.cores.isEmpty else { return nodes }
    let columns = [
      TableColumn(id: "processor", title: "#", minWidth: 2, priority: 3, alignment: .trailing),
      TableColumn(
        id: "bogomips", title: "BogoMIPS", minWidth: 8, priority: 2, alignment: .trailing),
      TableColumn(
        id: "implementer", title: context.text("column.implementer"), minWidth: 4, priority: 1),
      TableColumn(id: "part", title: context.text("column.part"), minWidth: 5, priority: 2),
      TableColumn(id: "arch", title: context.text("column.architecture"), minWidth: 4, priority: 0),
      TableColumn(id: "revision", title: context.text("column.revision"), minWidth: 3, priority: 0),
    ]
    let rows = info.cores.enumerated().map { index, core in
      TableRow(
        id: core.processor.isEmpty ? String(index) : core.processor,
        cells: [
          TableCell(core.processor),
          TableCell(core.bogomips.map { DeviceFormat.number($0, .speed) } ?? "—"),
          TableCell(dash(core.implementer)), TableCell(dash(core.part)),
          TableCell(dash(core.architecture)), TableCell(dash(core.revision)),
        ])
    }
    nodes.append(.table(Table(columns: columns, rows: rows)))
    return nodes
  }

  static func connectionBody(_ snapshot: ConnectionSnapshot, _ context: ViewContext)
    -> [ViewNode]
  {
    let language = context.language
    func probe(_ key: String, _ probe: ConnectivityInfo.Probe?) -> ViewNode {
      guard let probe else { return row(context, key, "—") }
      let target = probe.target.isEmpty ? "" : " (\(probe.target))"
      if probe.success {
        let latency =
          DeviceReading.milliseconds.checked(probe.latencyMs).map {
            " · " + DeviceFormat.number($0, .milliseconds) + " ms"
          } ?? ""
        return row(context, key, context.text("value.reachable") + latency + target, tone: .success)
      }
      let reason = probe.error.map { ": " + $0 } ?? ""
      return row(context, key, context.text("value.unreachable") + reason + target, tone: .danger)
    }
    func missing(_ part: String) -> String {
      snapshot.problems[part]?.label(language) ?? "—"
    }
    var nodes = [
      probe("field.ipv4", snapshot.connectivity.ipv4),
      probe("field.ipv6", snapshot.connectivity.ipv6),
    ]
    nodes.append(
      snapshot.data.map {
        row(
          context, "field.mobileData", context.text($0.active ? "value.on" : "value.off"),
          tone: $0.active ? .success : .warning)
      } ?? row(context, "field.mobileData", missing("data"), tone: .muted))
    nodes.append(
      snapshot.roaming.map {
        row(
          context, "field.roaming",
          context.text(
            "value.roaming",
            [
              "allowed": DeviceFormat.yesNo($0.roamingAllowed, language),
              "now": DeviceFormat.yesNo($0.isRoaming, language),
            ]), tone: $0.isRoaming ? .warning : nil)
      } ?? row(context, "field.roaming", missing("roaming"), tone: .muted))
    nodes.append(
      snapshot.airplaneMode.map {
        row(
          context, "field.airplaneMode", context.text($0.enabled ? "value.on" : "value.off"),
          tone: $0.enabled ? .warning : nil)
      } ?? row(context, "field.airplaneMode", missing("airplaneMode"), tone: .muted))
    return nodes
  }

  static func smsBody(_ snapshot: SmsSnapshot, _ context: ViewContext) -> [ViewNode] {
    let columns = [
      TableColumn(id: "time", title: context.text("column.time"), minWidth: 19, priority: 2),
      TableColumn(
        id: "direction", title: context.text("column.direction"), minWidth: 3, priority: 1),
      TableColumn(
        id: "peer", title: context.text("column.peer"), minWidth: 6, maxWidth: 20, priority: 4,
        truncation: .middle),
      TableColumn(id: "body", title: context.text("column.body"), minWidth: 8, priority: 3),
      TableColumn(id: "status", title: context.text("column.smsStatus"), minWidth: 8, priority: 0),
    ]
    let rows = snapshot.messages.map { message in
      TableRow(
        id: String(message.id),
        cells: [
          TableCell(message.timestamp),
          TableCell(
            context.text(message.isIncoming ? "value.incoming" : "value.outgoing"),
            tone: message.isIncoming ? .info : .muted),
          TableCell(message.phoneNumber),
          TableCell(snapshot.body(of: message)),
          TableCell(message.status, tone: message.status == "failed" ? .danger : nil),
        ])
    }
    var nodes: [ViewNode] = [.table(Table(columns: columns, rows: rows))]
    nodes.append(
      .text(
        Text(
          context.text(
            (snapshot.showBodies ? "sms.footer.full" : "sms.footer.masked")
              + (context.revealKey == nil ? "" : ".key"),
            [
              "count": String(snapshot.messages.count),
              "key": context.revealKey.map(String.init) ?? "",
            ]), style: .caption)))
    return nodes
  }

  // MARK: - Helpers

  static func row(_ context: ViewContext, _ key: String, _ value: String, tone: Tone? = nil)
    -> ViewNode
  {
    .keyValue(KeyValue(key: context.text(key), value: value, tone: tone))
  }

  static func dash(_ text: String) -> String { text.isEmpty ? "—" : text }

  static func join(_ parts: [String], _ separator: String = " · ") -> String {
    let kept = parts.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    return kept.isEmpty ? "—" : kept.joined(separator: separator)
  }

  static func registration(_ status: String, _ language: AppLanguage) -> String {
    let key = "registration.\(status.lowercased())"
    let text = DeviceModulesStrings.text(key, language)
    return text == key ? status : text
  }

  static func probeSummary(
    _ name: String, _ probe: ConnectivityInfo.Probe?, _ context: ViewContext
  ) -> String {
    guard let probe else { return "" }
    guard probe.success else { return "\(name) " + context.text("value.unreachable") }
    return "\(name) "
      + (DeviceReading.milliseconds.checked(probe.latencyMs).map {
        DeviceFormat.number($0, .milliseconds) + " ms"
      } ?? "ok")
  }
}
