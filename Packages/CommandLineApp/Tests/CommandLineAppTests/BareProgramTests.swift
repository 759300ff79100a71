import CommandLineApp
import Essentials
import EssentialsTesting
import FeatureKit
import Foundation
import Testing

/// The program with no feature compiled in: the built-ins, the conventions and the app's own
/// commands compose and run alone (the root package's tests run it with every feature).
@Suite struct BareProgramTests {
  struct Outcome {
    let status: Int32
    let output: String
    let error: String

    /// `data` of the `--json` envelope.
    func data() throws -> [String: Any] {
      let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
      return try #require(object?["data"] as? [String: Any])
    }
  }

  func run(_ arguments: [String], lang: String = "en_US.UTF-8") async throws -> Outcome {
    let home = FileManager.default.temporaryDirectory
      .appendingPathComponent("msa-bare-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    let output = Locked("")
    let error = Locked("")
    let context = ProcessContext(
      environment: ["MSA_HOME": home.path, "LANG": lang],
      streams: StandardStreams(
        writeError: { text in error.withLock { $0 += text } }, readInput: { nil }),
      writeOutput: { text in output.withLock { $0 += text } },
      outputIsTerminal: false, terminalWidth: nil, clock: TestClock().clock)
    let app = try MSAApplication(modules: [], schemaModules: [], appCommands: AppCommands.all)
    let status = await app.run(arguments, context: context)
    return Outcome(status: status, output: output.current, error: error.current)
  }

  @Test func onlyTheBuiltInsAreThere() async throws {
    let routes = try await run(["routes", "--json"])
    #expect(routes.status == 0)
    let rows = try #require(try routes.data()["routes"] as? [[String: Any]])
    #expect(rows.map { $0["route"] as? String } == ["about"])

    // `modules` lists features only: none.
    let modules = try await run(["modules", "--json"])
    #expect(modules.status == 0)
    #expect(try #require(try modules.data()["modules"] as? [Any]).isEmpty)

    let help = try await run(["--help"])
    for command in ["routes", "modules", "view", "help", "completion", "manual", "ui", "demo"] {
      #expect(help.output.contains("\n  \(command) "), "help lacks \(command)")
    }
    #expect(!help.output.contains("\n  fleet "))
  }

  @Test func fieldsListKeepAndRefuse() async throws {
    let list = try await run(["routes", "--fields"])
    #expect(list.status == 0)
    #expect(list.output == "route\nmodule\ntitle\n")

    let kept = try await run(["routes", "--json", "--fields", "route"])
    let rows = try #require(try kept.data()["routes"] as? [[String: Any]])
    #expect(rows.map { Array($0.keys) } == [["route"]])

    let unknown = try await run(["routes", "--json", "--fields", "colour"])
    #expect(unknown.status == 64)
    #expect(unknown.error.contains("colour"))
    #expect(unknown.error.contains("module"))
  }

  @Test func aboutNamesNoFeature() async throws {
    let about = try await run(["view", "about", "--width", "60"])
    #expect(about.status == 0)
    #expect(about.output.contains(AppInfo.version))
    #expect(about.output.contains("none"))
  }

  @Test func catalogueIsComplete() {
    #expect(AppStrings.catalogue.problems().isEmpty)
  }

  /// A full-width colon carries its own space: "错误：" is followed directly by the message,
  /// while English keeps "Error: ".
  @Test func errorPrefixIsSpacedByLanguage() async throws {
    let english = try await run(["view", "/nowhere"])
    #expect(english.status == 1)
    #expect(english.error.hasPrefix("Error: No route matches '/nowhere'."), "\(english.error)")
    let chinese = try await run(["view", "/nowhere"], lang: "zh_CN.UTF-8")
    #expect(chinese.status == 1)
    #expect(chinese.error.hasPrefix("错误：没有与“/nowhere”匹配的路由。"), "\(chinese.error)")
    // A usage error (CommandLineKit's report) reads the same way.
    let usage = try await run(["rutes"], lang: "zh_CN.UTF-8")
    #expect(usage.status == 64)
    #expect(usage.error.hasPrefix("错误：未知子命令 'rutes'。"), "\(usage.error)")
  }
}
