import Essentials
import Foundation
import SimAdminClient
import Testing

@testable import DeviceModulesFeature

@Suite("Section status mapping")
struct SectionStatusTests {
  struct Case: Sendable, CustomStringConvertible {
    let error: SimAdminError
    let status: SectionStatus
    var description: String { "\(error) → \(status.code)" }
  }

  static let cases: [Case] = [
    Case(error: .loginRequired, status: .loginRequired),
    Case(error: .wrongPassword, status: .loginRequired),
    // The simulator has no eSIM routes, so the eSIM-in-SIM-mode 403 is checked here.
    Case(error: .noPermission, status: .noPermission),
    Case(error: .notSupported, status: .notSupported),
    Case(error: .timeout, status: .timeout),
    Case(error: .upstream(message: "未检测到调制解调器"), status: .upstream(message: "未检测到调制解调器")),
    Case(error: .unreachable(.refused), status: .failed(.unreachable(.refused))),
    Case(error: .httpStatus(500), status: .failed(.httpStatus(500))),
  ]

  @Test("client errors map to section states", arguments: cases)
  func maps(_ mapping: Case) {
    let status = SectionStatus(mapping.error)
    #expect(status == mapping.status)
    #expect(status.isFailure)
    #expect(status.message(.english)?.isEmpty == false)
    #expect(status.message(.simplifiedChinese)?.isEmpty == false)
  }

  @Test("loaded, empty and loading are not failures")
  func notFailures() {
    for status in [SectionStatus.loaded, .empty, .loading] {
      #expect(!status.isFailure)
    }
  }

  @Test("the 403 state explains itself in both languages")
  func noPermissionText() {
    #expect(SectionStatus.noPermission.message(.english)?.contains("403") == true)
    #expect(SectionStatus.noPermission.message(.simplifiedChinese)?.contains("403") == true)
    #expect(SectionStatus.noPermission.label(.simplifiedChinese) == "无权限")
  }

  @Test("a section's JSON message is in the output's language, a device's own text as sent")
  func jsonMessageFollowsTheLanguage() throws {
    func message(_ status: SectionStatus, _ language: AppLanguage) throws -> String? {
      let encoder = JSONEncoder()
      if let key = AppLanguage.userInfoKey { encoder.userInfo[key] = language }
      let data = try encoder.encode(SectionState(section: .sim, status: status))
      let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
      return object?["message"] as? String
    }
    for status in [SectionStatus.timeout, .notSupported, .failed(.unreachable(.refused))] {
      #expect(try message(status, .english) == status.message(.english))
      #expect(try message(status, .simplifiedChinese) == status.message(.simplifiedChinese))
      #expect(try message(status, .english) != message(status, .simplifiedChinese))
    }
    let upstream = SectionStatus.upstream(message: "no modem")
    #expect(try message(upstream, .simplifiedChinese) == "no modem")
  }
}
