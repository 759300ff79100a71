import Essentials
import Foundation
import FuzzDriver
import LocalStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The checks msa makes of the file at `msa.sqlite` before and while opening it (issue 35
/// points 1 and 2): the header hint (`DatabaseFile.headerProblem`), whose file it is
/// (`DatabaseOwner`), and `Store.open`, read-only and writable, on a fuzzed main file and
/// write-ahead log. The input is the main file's length (4 bytes, big-endian, taken modulo
/// what follows), the main file, then the log. Nothing may trap; a file refused as another
/// program's is left byte for byte as it was; a file refused as damaged names itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDatabaseFile(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  guard let start, count >= 4 else { return 0 }
  let input = [UInt8](UnsafeBufferPointer(start: start, count: count))
  let declared = Int(input[0]) << 24 | Int(input[1]) << 16 | Int(input[2]) << 8 | Int(input[3])
  let rest = input[4...]
  let split = rest.isEmpty ? 0 : declared % (rest.count + 1)
  let main = Data(rest.prefix(split))
  let wal = Data(rest.dropFirst(split))

  let home = FileManager.default.temporaryDirectory
    .appendingPathComponent("fuzz-db-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
  defer { try? FileManager.default.removeItem(at: home) }
  guard
    (try? FileManager.default.createDirectory(at: home, withIntermediateDirectories: true))
      != nil
  else { return 0 }
  chmod(home.path, 0o700)
  let database = home.appendingPathComponent(Store.databaseFileName)
  guard (try? main.write(to: database)) != nil else { return 0 }
  if !wal.isEmpty { try? wal.write(to: URL(fileURLWithPath: database.path + "-wal")) }

  _ = DatabaseFile.headerProblem(database)
  if let candidate = try? SQLiteDatabase(url: database, mode: .readOnly) {
    _ = try? DatabaseOwner.verdict(of: candidate)
    _ = candidate.quickCheck()
    candidate.close()
  }
  let clock = AppClock(now: { Date(timeIntervalSince1970: 1_767_225_600) })
  for readOnly in [true, false] {
    let before = try? Data(contentsOf: database)
    do {
      let store = try Store.open(directory: home, modules: [], clock: clock, readOnly: readOnly)
      _ = try? InstanceRepository(store: store).list()
      store.database.close()
    } catch let error as StoreError {
      switch error {
      case .foreign:
        precondition(
          (try? Data(contentsOf: database)) == before, "another program's file was written")
      case .damaged(let path, _, _):
        precondition(path == database.path)
      default: break
      }
      for language in AppLanguage.allCases { _ = error.localizedMessage(language) }
    } catch {
      _ = String(describing: error)
    }
  }
  return 0
}

@_cdecl("FuzzDatabaseFile_main")
func fuzzDatabaseFileMain(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
  msa_fuzz_run(argc, argv, fuzzDatabaseFile)
}
