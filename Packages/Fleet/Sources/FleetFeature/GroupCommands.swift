import CommandLineKit
import Essentials
import FeatureKit
import Foundation
import LocalStore
import ViewKit

/// The `msa groups …` and `msa tags` commands.
enum GroupCommands {
  static func string(_ key: String) -> LocalizedString { FleetStrings.string(key) }

  static var groups: FeatureCommand {
    FeatureCommand(
      CommandSpec("groups", abstract: string("cmd.groups"), defaultSubcommand: "list"),
      subcommands: [list, add, rename, remove])
  }

  static func result(_ context: FleetContext, banner: String? = nil) throws -> CommandResult {
    let groups = try context.registry.listGroups()
    let entries = groups.map { GroupEntry(id: $0.id, name: $0.name, members: $0.memberCount) }
    var children: [ViewNode] = []
    if let banner { children.append(.banner(Banner(banner, tone: .success))) }
    if groups.isEmpty {
      children.append(.empty(EmptyState(title: context.text("groups.empty"))))
    } else {
      children.append(
        .table(
          Table(
            columns: [
              TableColumn(id: "name", title: context.text("column.group"), priority: 2),
              TableColumn(
                id: "members", title: context.text("column.members"), priority: 1,
                alignment: .trailing),
            ],
            rows: entries.map {
              TableRow(id: $0.id, cells: [TableCell($0.name), TableCell(String($0.members))])
            })))
    }
    return CommandResult(view: .stack(children), payload: GroupsPayload(groups: entries))
  }

  static var list: FeatureCommand {
    FeatureCommand(
      CommandSpec("list", aliases: ["ls"], abstract: string("cmd.groups.list"))
        .listing("groups", fields: GroupEntry.jsonFields)
    ) { invocation in
      try result(try FleetContext(invocation.environment))
    }
  }

  static var add: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "add", abstract: string("cmd.groups.add"),
        arguments: [ArgumentSpec("NAME", help: string("arg.groupName"))]
      ).listing("groups", fields: GroupEntry.jsonFields)
    ) { invocation in
      let context = try FleetContext(invocation.environment)
      let group = try context.registry.createGroup(name: try invocation.parsed.argument("NAME"))
      return try result(context, banner: context.text("result.groupAdded", ["name": group.name]))
    }
  }

  static var rename: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "rename", abstract: string("cmd.groups.rename"),
        arguments: [
          ArgumentSpec("GROUP", help: string("arg.group")).completing(.group),
          ArgumentSpec("NAME", help: string("arg.groupName")),
        ]
      ).listing("groups", fields: GroupEntry.jsonFields)
    ) { invocation in
      let context = try FleetContext(invocation.environment)
      let group = try context.registry.resolveGroup(
        reference: try invocation.parsed.argument("GROUP"))
      let renamed = try context.registry.renameGroup(
        id: group.id, to: try invocation.parsed.argument("NAME"))
      return try result(
        context,
        banner: context.text("result.groupRenamed", ["old": group.name, "name": renamed.name]))
    }
  }

  static var remove: FeatureCommand {
    FeatureCommand(
      CommandSpec(
        "remove", aliases: ["rm"], abstract: string("cmd.groups.remove"),
        arguments: [ArgumentSpec("GROUP", help: string("arg.group")).completing(.group)]
      ).listing("groups", fields: GroupEntry.jsonFields)
    ) { invocation in
      let context = try FleetContext(invocation.environment)
      let group = try context.registry.resolveGroup(
        reference: try invocation.parsed.argument("GROUP"))
      try context.registry.deleteGroup(id: group.id)
      return try result(
        context,
        banner: context.text(
          "result.groupRemoved", ["name": group.name, "count": String(group.memberCount)]))
    }
  }

  static var tags: FeatureCommand {
    FeatureCommand(
      CommandSpec("tags", abstract: string("cmd.tags")).listing("tags", fields: ["tag", "count"])
    ) { invocation in
      let context = try FleetContext(invocation.environment)
      let tags = try context.registry.tagCounts().map { TagEntry(tag: $0.tag, count: $0.count) }
      let view: ViewNode =
        tags.isEmpty
        ? .empty(EmptyState(title: context.text("tags.empty")))
        : .table(
          Table(
            columns: [
              TableColumn(id: "tag", title: context.text("column.tag"), priority: 2),
              TableColumn(
                id: "count", title: context.text("column.members"), priority: 1,
                alignment: .trailing),
            ],
            rows: tags.map {
              TableRow(id: $0.tag, cells: [TableCell($0.tag), TableCell(String($0.count))])
            }))
      return CommandResult(view: view, payload: TagsPayload(tags: tags))
    }
  }
}
