import Essentials
import Foundation
import SimAdminClient

/// Fetches sections of one device through its ``SimAdminSession``, all at once.
///
/// Each section is fetched independently: one that fails or hangs (until the connector's
/// timeout) never keeps the others from arriving.
public struct SectionLoader: Sendable {
  /// The instance's session (the one door to it).
  public let session: SimAdminSession
  /// Stamps `fetchedAt`.
  public let clock: AppClock
  /// How many messages the SMS section shows.
  public let smsLimit: Int
  /// Whether SMS bodies are kept unmasked.
  public let showBodies: Bool

  /// A loader for one device.
  public init(
    session: SimAdminSession, clock: AppClock, smsLimit: Int = 20, showBodies: Bool = false
  ) {
    self.session = session
    self.clock = clock
    self.smsLimit = smsLimit
    self.showBodies = showBodies
  }

  /// Fetches `sections` concurrently; the result keeps ``DeviceSection`` order.
  public func load(_ sections: [DeviceSection]) async -> [SectionState] {
    let wanted = DeviceSection.allCases.filter(sections.contains)
    let states = await withTaskGroup(of: SectionState.self) { group in
      for section in wanted {
        group.addTask { await self.load(section) }
      }
      var states: [SectionState] = []
      for await state in group { states.append(state) }
      return states
    }
    return wanted.compactMap { section in states.first { $0.section == section } }
  }

  /// Fetches one section.
  public func load(_ section: DeviceSection) async -> SectionState {
    let content: SectionContent
    do {
      switch section {
      case .device: content = .device(try await session.device())
      case .sim: content = .sim(try await session.sim())
      case .cellular: content = .cellular(try await cellular())
      case .resources: content = .resources(try await session.stats())
      case .cpu: content = .cpu(try await session.cpu())
      case .connection: content = .connection(try await connection())
      case .sms:
        let messages = try await session.smsList(limit: smsLimit, offset: 0)
        content = .sms(SmsSnapshot(messages: messages, showBodies: showBodies))
      }
    } catch let failure as SimAdminFailure {
      return SectionState(
        section: section, status: SectionStatus(failure.error), fetchedAt: clock.now())
    } catch {
      return SectionState(
        section: section, status: .failed(.malformedResponse(String(describing: error))),
        fetchedAt: clock.now())
    }
    let status: SectionStatus = Self.isEmpty(content) ? .empty : .loaded
    return SectionState(
      section: section, status: status, content: status == .loaded ? content : nil,
      fetchedAt: clock.now())
  }

  /// Whether fetched content has nothing to show.
  static func isEmpty(_ content: SectionContent) -> Bool {
    switch content {
    case .device(let info): info.imei.isEmpty && info.model.isEmpty && info.manufacturer.isEmpty
    case .sim: false
    case .cellular: false
    case .resources(let stats): (stats.memory?.totalBytes ?? 0) == 0 && stats.disks.isEmpty
    case .cpu(let info): info.cores.isEmpty && info.modelName.isEmpty && info.hardware.isEmpty
    case .connection: false
    case .sms(let snapshot): snapshot.messages.isEmpty
    }
  }

  // MARK: - Sections of several endpoints

  private func cellular() async throws -> CellularSnapshot {
    async let network = session.network()
    async let cells = outcome { try await session.cells() }
    let (cellsValue, cellsStatus) = await cells
    return CellularSnapshot(network: try await network, cells: cellsValue, cellsStatus: cellsStatus)
  }

  private func connection() async throws -> ConnectionSnapshot {
    async let connectivity = session.connectivity()
    async let data = outcome { try await session.dataState() }
    async let roaming = outcome { try await session.roaming() }
    async let airplane = outcome { try await session.airplaneMode() }
    let (dataValue, dataStatus) = await data
    let (roamingValue, roamingStatus) = await roaming
    let (airplaneValue, airplaneStatus) = await airplane
    var problems: [String: SectionStatus] = [:]
    if dataValue == nil { problems["data"] = dataStatus }
    if roamingValue == nil { problems["roaming"] = roamingStatus }
    if airplaneValue == nil { problems["airplaneMode"] = airplaneStatus }
    return ConnectionSnapshot(
      connectivity: try await connectivity, data: dataValue, roaming: roamingValue,
      airplaneMode: airplaneValue, problems: problems)
  }

  private func outcome<T: Sendable>(_ call: @Sendable () async throws -> T) async -> (
    T?, SectionStatus
  ) {
    do {
      return (try await call(), .loaded)
    } catch let failure as SimAdminFailure {
      return (nil, SectionStatus(failure.error))
    } catch {
      return (nil, .failed(.malformedResponse(String(describing: error))))
    }
  }
}
