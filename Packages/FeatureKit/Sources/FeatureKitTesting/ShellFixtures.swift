import CommandLineKit
import Essentials
import FeatureKit
import ViewKit

/// Fixtures for the tests of the shells that compose features (the app core, the console):
/// a registry of sample modules and the screen they mostly show.
public enum ShellFixtures {
  /// `modules` beside built-ins that declare nothing (named by `catalogue`'s `x`); every route
  /// action is dry-parsed under `root` (default: the registry's own).
  public static func registry(
    _ modules: [FeatureModule], catalogue: StringCatalogue, root: CommandSpec? = nil
  ) throws(RegistryConflicts) -> FeatureRegistry {
    let x = LocalizedString("x", in: catalogue)
    let builtIns = FeatureModule(
      id: "app", name: x, summary: x, order: 0, home: nil, routes: [], commands: [],
      catalogue: catalogue)
    guard let root else { return try FeatureRegistry(builtIns: builtIns, modules: modules) }
    return try FeatureRegistry(builtIns: builtIns, modules: modules, root: root)
  }

  /// A screen titled `title`: a table of a Name and a Status column holding `rows` (the
  /// column with the higher priority stays when narrow), then `after`.
  public static func statusTable(
    title: String, rows: [TableRow], namePriority: Int = 2, statusPriority: Int = 1,
    after: [ViewNode] = []
  ) -> ViewNode {
    .screen(
      Screen(
        title: title,
        children: [
          .table(
            Table(
              columns: [
                TableColumn(id: "name", title: "Name", minWidth: 8, priority: namePriority),
                TableColumn(id: "status", title: "Status", minWidth: 8, priority: statusPriority),
              ],
              rows: rows))
        ] + after))
  }
}
