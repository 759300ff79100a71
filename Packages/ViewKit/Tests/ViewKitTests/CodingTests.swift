import Foundation
import Testing
import ViewKit

@Suite struct CodingTests {
  @Test func documentRoundTripsThroughJSON() throws {
    let document = ViewDocument(root: Fixtures.everything)
    let data = try document.jsonData()
    #expect(try ViewDocument.decode(from: data) == document)
    let text = try #require(String(data: data, encoding: .utf8))
    #expect(text.contains("\"version\" : 1"))
    // Sorted keys and pretty printing make the dump stable.
    #expect(try document.jsonData() == data)
  }

  @Test(arguments: [
    (ViewNode.keyValue(KeyValue(key: "k", value: "v")), "keyValue"),
    (.badge(Badge("b", tone: .danger)), "badge"),
    (.stack([.text(Text("t"))]), "stack"),
    (.inline([.badge(Badge("b"))]), "inline"),
    (.table(Fixtures.fleetTable), "table"),
    (.list(ListNode(items: [])), "list"),
    (.field(FormField(id: "f", label: "F")), "field"),
    (.empty(EmptyState(title: "E")), "empty"),
    (.error(ErrorState(title: "E", message: "M")), "error"),
    (.progress(Progress(label: "P", completed: 1, total: 2)), "progress"),
  ])
  func nodesAreFlatObjectsWithATypeTag(node: ViewNode, type: String) throws {
    let data = try JSONEncoder().encode(node)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(object["type"] as? String == type)
    #expect(node.typeName == type)
    #expect(try JSONDecoder().decode(ViewNode.self, from: data) == node)
  }

  @Test func keyValueEncodesItsFieldsBesideTheTag() throws {
    let data = try JSONEncoder().encode(ViewNode.keyValue(KeyValue(key: "Phone", value: "10086")))
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
    #expect(object == ["type": "keyValue", "key": "Phone", "value": "10086"])
  }

  @Test func unknownTypeAndNewerVersionAreRefused() {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(ViewNode.self, from: Data(#"{"type": "carousel"}"#.utf8))
    }
    #expect(throws: DecodingError.self) {
      try ViewDocument.decode(
        from: Data(#"{"version": 2, "root": {"type": "text", "text": "x", "style": "body"}}"#.utf8))
    }
  }
}
