import Essentials
import Foundation
import Testing

@testable import ThemeKit

@Suite struct TokenLoaderTests {
  func load(_ json: String) throws -> Theme {
    try Theme(jsonData: Data(json.utf8))
  }

  func error(_ json: String) -> TokenError? {
    do {
      _ = try load(json)
      return nil
    } catch let error as TokenError {
      return error
    } catch {
      return nil
    }
  }

  @Test func readsStringAndObjectColourForms() throws {
    let theme = try load(
      """
      {"c": {"$type": "color",
        "plain": {"$value": "#112233"},
        "short": {"$value": "#abc"},
        "hex": {"$value": {"colorSpace": "srgb", "components": [0, 0, 0], "hex": "#112233"}},
        "components": {"$value": {"colorSpace": "srgb", "components": [1, 0.5, 0]}}}}
      """)
    #expect(theme.color(named: "c.plain") == RGBColor(r: 0x11, g: 0x22, b: 0x33))
    #expect(theme.color(named: "c.short")?.hex == "#aabbcc")
    #expect(theme.color(named: "c.hex")?.hex == "#112233")
    #expect(theme.color(named: "c.components") == RGBColor(r: 255, g: 128, b: 0))
  }

  @Test func readsStringAndObjectDimensionForms() throws {
    let theme = try load(
      """
      {"d": {"$type": "dimension", "a": {"$value": "10px"}, "b": {"$value": {"value": 1.5, "unit": "rem"}}},
       "alias": {"$type": "dimension", "$value": "{d.a}"}}
      """)
    #expect(theme.dimension(named: "d.a") == Dimension(value: 10, unit: "px"))
    #expect(theme.dimension(named: "d.b")?.description == "1.5rem")
    #expect(theme.dimension(named: "alias")?.description == "10px")
  }

  @Test func typeIsInheritedFromTheNearestGroupAndAliasesCarryTheirTargetsType() throws {
    let theme = try load(
      """
      {"g": {"$type": "color", "inner": {"$type": "fontWeight", "w": {"$value": "bold"}},
             "c": {"$value": "#000000"}},
       "untyped": {"$value": "{g.c}"}}
      """)
    #expect(theme.value(named: "g.inner.w") == .fontWeight(700))
    #expect(theme.color(named: "untyped")?.hex == "#000000")
    #expect(theme.descriptions.isEmpty)
  }

  @Test func missingAliasTargetNamesBothPaths() throws {
    let failure = try #require(
      error(##"{"a": {"$type": "color", "$value": "{color.blue.600}"}}"##))
    #expect(failure == .missingAliasTarget(path: "a", target: "color.blue.600"))
    #expect(failure.description.contains("a refers to color.blue.600"))
    #expect(failure.localizedMessage(.simplifiedChinese).contains("color.blue.600"))
  }

  @Test func aliasCycleListsTheCycle() throws {
    let failure = try #require(
      error(
        """
        {"a": {"$value": "{b}"}, "b": {"$value": "{c}"}, "c": {"$value": "{a}"}}
        """))
    #expect(failure == .aliasCycle(["a", "b", "c", "a"]))
    #expect(failure.description.contains("a → b → c → a"))
  }

  @Test func selfAliasIsACycle() throws {
    #expect(error(##"{"x": {"$type": "color", "$value": "{x}"}}"##) == .aliasCycle(["x", "x"]))
  }

  @Test func unknownTypeNamesTokenAndType() throws {
    let failure = try #require(error(##"{"g": {"$type": "colour", "t": {"$value": "#fff"}}}"##))
    #expect(failure == .unknownType(path: "g.t", type: "colour"))
    #expect(failure.description.contains("g.t"))
    #expect(failure.description.contains("\"colour\""))
  }

  @Test func missingTypeIsAnError() {
    #expect(error(##"{"t": {"$value": "#ffffff"}}"##) == .missingType(path: "t"))
  }

  @Test func aliasToAnotherTypeIsAMismatch() throws {
    let failure = try #require(
      error(
        """
        {"size": {"$type": "dimension", "$value": "10px"},
         "ink": {"$type": "color", "$value": "{size}"}}
        """))
    #expect(failure == .typeMismatch(path: "ink", expected: "color", found: "dimension"))
    #expect(failure.description.contains("ink"))
  }

  @Test(arguments: [
    (##"{"t": {"$type": "color", "$value": "blue"}}"##, "color"),
    (
      ##"{"t": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [2, 0, 0]}}}"##,
      "color"
    ),
    (##"{"t": {"$type": "dimension", "$value": "10pt"}}"##, "dimension"),
    (##"{"t": {"$type": "dimension", "$value": {"value": "ten", "unit": "px"}}}"##, "dimension"),
    (##"{"t": {"$type": "fontWeight", "$value": "heavyish"}}"##, "fontWeight"),
    (##"{"t": {"$type": "number", "$value": "one"}}"##, "number"),
  ])
  func unparsableValuesNameTheToken(json: String, type: String) throws {
    let failure = try #require(error(json))
    guard case .unparsableValue(let path, let reportedType, _) = failure else {
      Issue.record("expected unparsableValue, got \(failure)")
      return
    }
    #expect(path == "t")
    #expect(reportedType == type)
    #expect(failure.description.hasPrefix("Token t (\(type))"))
  }

  @Test func malformedDocumentsAreRejected() {
    #expect(error("[1, 2]") == .malformedDocument(detail: "the top level is not an object"))
    #expect(error(##"{"a": 3}"##) == .malformedDocument(detail: "a is neither a group nor a token"))
  }

  @Test func catalogueIsComplete() {
    #expect(ThemeKitStrings.catalogue.problems().isEmpty)
  }
}
