import DeviceModulesFeature
import Essentials
import Foundation
import FuzzDriver
import LocalStore
import MessagesFeature
import ViewKit

@testable import FleetFeature
@testable import SimAdminClient

/// Arbitrary device JSON through the client into every view (issue 36 point 8): the bytes are
/// read as the `data` of every model a probe or a device screen asks for, on both of the
/// client's paths, and whatever reads is shown the way msa shows it:
///
/// - every DeviceModules section, the overview and `--all-sections`, and their JSON;
/// - the Fleet snapshot a connection test keeps (``SnapshotParts``), its stored text read back,
///   and the workbench and detail of the row holding it; the bytes themselves read as a stored
///   snapshot (a home an older version, or a damaged file, holds);
/// - the SMS page archived into a real SQLite archive, then the message list, the
///   conversations and each thread.
///
/// Each view is rendered in both languages, at 24 and 120 columns. A crash, a trap or a JSON encoder
/// refusing what was read (a non-finite number) fails the target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDeviceViews(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  guard let fixture else { fatalError("no archive to write into (see the line above)") }
  guard let start else { return 0 }
  let body = Data(UnsafeRawBufferPointer(UnsafeBufferPointer(start: start, count: count)))
  let now = Date(timeIntervalSince1970: 1_767_225_600)

  func read<T: Decodable & Sendable & Equatable>(_ type: T.Type) -> Result<T, SimAdminError> {
    let fast = Result { () throws(SimAdminError) in
      try SimAdminSession.decodePayload(body, as: T.self, enveloped: true)
    }
    let plain = Result { () throws(SimAdminError) in
      try SimAdminSession.decodePayload(body, as: T.self, enveloped: true, fastPath: false)
    }
    if case .success(let a) = fast, case .success(let b) = plain, a != b {
      fatalError("\(T.self): the fast path read \(a), JSONDecoder read \(b)")
    }
    return plain
  }

  // MARK: Device screens

  let device = read(DeviceInfo.self)
  let sim = read(SimInfo.self)
  let network = read(NetworkInfo.self)
  let cells = read(CellsInfo.self)
  let stats = read(SystemStats.self)
  let cpu = read(CPUInfo.self)
  let connectivity = read(ConnectivityInfo.self)
  let data = read(DataState.self)
  let roaming = read(RoamingState.self)
  let airplane = read(AirplaneMode.self)
  let list = read(SmsMessageList.self)
  _ = read(HealthInfo.self)
  _ = read(AuthStatus.self)
  _ = read(HubState.self)
  _ = read(SmsStats.self)
  _ = read(SendResult.self)
  _ = read(DeleteResult.self)

  func state(_ section: DeviceSection, _ content: SectionContent?) -> SectionState {
    SectionState(
      section: section, status: content == nil ? .empty : .loaded, content: content,
      fetchedAt: now)
  }
  let report = DeviceReport(
    instance: DeviceTarget(id: "fuzz", name: "Fuzz", origin: "http://127.0.0.1:3000"),
    sections: [
      state(.device, (try? device.get()).map(SectionContent.device)),
      state(.sim, (try? sim.get()).map(SectionContent.sim)),
      state(
        .cellular,
        (try? network.get()).map {
          .cellular(CellularSnapshot(network: $0, cells: try? cells.get()))
        }),
      state(.resources, (try? stats.get()).map(SectionContent.resources)),
      state(.cpu, (try? cpu.get()).map(SectionContent.cpu)),
      state(
        .connection,
        (try? connectivity.get()).map {
          .connection(
            ConnectionSnapshot(
              connectivity: $0, data: try? data.get(), roaming: try? roaming.get(),
              airplaneMode: try? airplane.get()))
        }),
      state(.sms, (try? list.get()).map { .sms(SmsSnapshot(messages: $0.messages)) }),
    ])
  for language in AppLanguage.allCases {
    let context = ViewContext(
      language: language, now: now, timeZone: TimeZone(secondsFromGMT: 28_800) ?? .current,
      ref: "Fuzz")
    // `--all-sections` holds every section's own screen.
    render(
      [DeviceViews.overview(report, context), DeviceViews.allSections(report, context)], language)
  }
  encode(report)

  // MARK: Fleet

  let parts = SnapshotParts(
    device: device, sim: read(SimInfo.Glance.self), network: network,
    stats: read(SystemStats.Glance.self), data: data,
    sms: list.map(\.messages), layerSeconds: 5)
  _ = parts.evaluate()
  let snapshot = parts.snapshot()
  guard snapshot.isBelieved else { fatalError("a connection test kept \(snapshot)") }
  let (text, readsBack) = snapshot.storedText()
  let stored = DeviceSnapshot.decode(text)
  if readsBack, stored != snapshot {
    fatalError("\(text ?? "nil") reads back as \(String(describing: stored)), not \(snapshot)")
  }
  // The bytes themselves as a stored snapshot: what a home written by any version holds.
  let raw = DeviceSnapshot.decode(String(decoding: body, as: UTF8.self))
  if let raw, !raw.isBelieved { fatalError("a stored snapshot read as \(raw)") }
  let rows = [stored, raw, snapshot].enumerated().map { index, snapshot in
    FleetRow(
      id: "row\(index)", name: "Fuzz \(index)", origin: "http://127.0.0.1:\(3000 + index)",
      isPlainHTTP: true, status: .online, checkedAt: now, latencyMS: 3, version: "1.1.10",
      snapshot: snapshot, snapshotFetchedAt: now.addingTimeInterval(-60), createdAt: now)
  }
  for language in AppLanguage.allCases {
    var views = [WorkbenchView.view(WorkbenchState(rows: rows, now: now), language: language)]
    for row in rows { views.append(InstanceDetailView.view(row, now: now, language: language)) }
    render(views, language)
  }
  encode(rows)

  // MARK: Messages

  if case .success(let page) = list, !page.messages.isEmpty {
    do {
      _ = try fixture.archive.ingest(
        page.messages, instanceID: "fuzz", instanceName: "Fuzz", syncedAt: now)
      let messages = try fixture.archive.list(limit: 500)
      let conversations = try fixture.archive.conversations(limit: 50)
      let zone = TimeZone(secondsFromGMT: 28_800) ?? .current
      for language in AppLanguage.allCases {
        var views = [
          MessagesViews.list(
            MessageListState(
              messages: messages, showBodies: false, nextCursor: nil, timeZone: zone),
            language: language),
          MessagesViews.list(
            MessageListState(messages: messages, showBodies: true, nextCursor: nil, timeZone: zone),
            language: language),
          MessagesViews.conversations(
            ConversationsState(conversations: conversations, timeZone: zone), language: language),
        ]
        for conversation in conversations {
          let thread = try fixture.archive.list(
            filter: MessageFilter(peerKey: conversation.peerKey), limit: 100)
          views.append(
            MessagesViews.thread(
              ThreadState(peer: conversation.peer, messages: thread, timeZone: zone),
              language: language))
        }
        render(views, language)
      }
      _ = try fixture.archive.delete(ids: messages.map(\.id))
    } catch {
      // A local failure (the temporary archive) is not what this target looks for.
      FileHandle.standardError.write(Data("archive: \(error)\n".utf8))
    }
  }
  return 0
}

/// Renders every view in `language`, narrow and wide.
private func render(_ views: [ViewNode], _ language: AppLanguage) {
  for view in views {
    for width in [24, 120] {
      _ = TextRenderer.render(view, options: RenderOptions(width: width, language: language))
    }
  }
}

/// JSON of what was read: an encoder refusing it (a non-finite number) is a failure.
private func encode<T: Encodable>(_ value: T) {
  let encoder = JSONEncoder()
  encoder.dateEncodingStrategy = .iso8601
  do {
    _ = try encoder.encode(value)
  } catch {
    fatalError("JSONEncoder refused what msa read: \(error)")
  }
}

/// The archive messages are written into, made once per fuzzing process.
private struct Fixture: Sendable {
  let archive: MessageArchive
}

private let fixture: Fixture? = {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("msa-fuzz-views-\(getpid())")
  do {
    try? FileManager.default.removeItem(at: directory)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let store = try Store.open(directory: directory, modules: [Messages.schema], clock: .system)
    return Fixture(archive: MessageArchive(store: store))
  } catch {
    FileHandle.standardError.write(Data("cannot make the fuzz archive: \(error)\n".utf8))
    return nil
  }
}()

@_cdecl("FuzzDeviceViews_main")
func fuzzDeviceViewsMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  msa_fuzz_run(argc, argv, fuzzDeviceViews)
}
