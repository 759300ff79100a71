import Essentials
import Foundation
import FuzzDriver
import LocalStore
import LogCenterFeature

/// `msa data import-registry FILE --dry-run` on an arbitrary file, against a store that
/// already holds an instance and a group (so duplicates and existing groups are met): the
/// import reports what it would do or refuses with a message in both languages.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRegistryImport(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  guard let fixture else { fatalError("no store to import into (see the line above)") }
  guard let start else { return 0 }
  let data = Data(UnsafeRawBufferPointer(UnsafeBufferPointer(start: start, count: count)))
  guard (try? data.write(to: fixture.file)) != nil else { return 0 }
  do {
    let report = try fixture.transfer.importRegistry(from: fixture.file, dryRun: true)
    guard report.dryRun else { fatalError("a dry run reported a real import") }
  } catch let failure as any LocalizedFailure {
    for language in AppLanguage.allCases { _ = failure.localizedMessage(language) }
  } catch {
    _ = String(describing: error)
  }
  return 0
}

/// The store and the file each input is written to, made once per fuzzing process.
private struct Fixture: Sendable {
  let transfer: RegistryTransfer
  let file: URL
}

private let fixture: Fixture? = {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("msa-fuzz-registry-\(getpid())")
  do {
    try? FileManager.default.removeItem(at: directory)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let store = try Store.open(
      directory: directory.appendingPathComponent("home"), modules: [], clock: .system)
    let repository = InstanceRepository(store: store)
    let group = try repository.createGroup(name: "North")
    _ = try repository.add(
      name: "Existing", origin: try InstanceOrigin(parsing: "http://10.0.0.1:3000"),
      tags: ["office"], groupID: group.id)
    return Fixture(
      transfer: RegistryTransfer(store: store, clock: .system),
      file: directory.appendingPathComponent("registry.json"))
  } catch {
    FileHandle.standardError.write(Data("cannot make the fuzz store: \(error)\n".utf8))
    return nil
  }
}()

@_cdecl("FuzzRegistryImport_main")
func fuzzRegistryImportMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  msa_fuzz_run(argc, argv, fuzzRegistryImport)
}
