import CommandLineApp
import Essentials
import EssentialsTesting
import FeatureKit
import Foundation
import MSAApp
import Testing

/// Runs msa in-process with captured output.
struct Run {
  let status: Int32
  let output: String
  let error: String
}

final class Captured: Sendable {
  let text = Locked("")
}

func msa(_ arguments: [String], environment: [String: String] = [:], input: String? = nil)
  async throws -> Run
{
  let home = FileManager.default.temporaryDirectory
    .appendingPathComponent("msa-test-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: home) }
  let output = Captured()
  let error = Captured()
  let context = ProcessContext(
    environment: ["MSA_HOME": home.path, "LANG": "en_US.UTF-8"].merging(environment) { $1 },
    streams: StandardStreams(
      writeError: { text in error.text.withLock { $0 += text } }, readInput: { input }),
    writeOutput: { text in output.text.withLock { $0 += text } },
    outputIsTerminal: false, terminalWidth: nil, clock: TestClock().clock)
  let app = try MSAApplication(modules: CompiledFeatures.modules)
  let status = await app.run(arguments, context: context)
  return Run(status: status, output: output.text.current, error: error.text.current)
}

@Suite struct AppTests {
  @Test func versionPrintsTheVersion() async throws {
    let run = try await msa(["--version"])
    #expect(run.status == 0)
    #expect(run.output == "msa \(AppInfo.version)\n")
  }

  @Test func helpListsBuiltIns() async throws {
    let run = try await msa(["--help"])
    #expect(run.status == 0)
    #expect(run.output.hasPrefix("OVERVIEW: One console for a fleet of SimAdmin cellular devices."))
    #expect(run.output.contains("routes"))
    #expect(run.output.hasSuffix("\n"))
  }

  @Test func unknownCommandIsAUsageErrorWithSuggestion() async throws {
    let run = try await msa(["rutes"])
    #expect(run.status == 64)
    #expect(run.output.isEmpty)
    #expect(run.error.contains("routes"))
  }

  @Test func badLanguageIsAUsageError() async throws {
    let run = try await msa(["routes", "--lang", "fr"])
    #expect(run.status == 64)
    #expect(run.error.contains("fr"))
  }

  @Test func aboutRouteRendersAtEachWidth() async throws {
    for width in [40, 80, 120] {
      let run = try await msa(["view", "about", "--width", "\(width)"])
      #expect(run.status == 0)
      #expect(run.output.contains("MultiSimAdmin"))
      for line in run.output.split(separator: "\n") {
        #expect(line.count <= width)
      }
    }
  }

  @Test func viewJSONDumpsTheTree() async throws {
    let run = try await msa(["view", "about", "--json"])
    #expect(run.status == 0)
    let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
    #expect(object?["schemaVersion"] as? Int == 1)
    #expect(object?["command"] as? String == "view")
    let data = object?["data"] as? [String: Any]
    let document = data?["document"] as? [String: Any]
    #expect((document?["root"] as? [String: Any])?["type"] as? String == "screen")
  }

  @Test func unknownRouteFailsWithHint() async throws {
    let run = try await msa(["view", "nowhere"])
    #expect(run.status == 1)
    #expect(run.error.contains("msa routes"))
  }

  @Test func chineseHelp() async throws {
    let run = try await msa(["--help"], environment: ["LANG": "zh_CN.UTF-8"])
    #expect(run.output.hasPrefix("概述"))
  }

  @Test func appCatalogueIsComplete() {
    #expect(AppStrings.catalogue.problems().isEmpty)
  }
}
