import FleetFeature
import Testing

@Suite struct CatalogueTests {
  @Test func catalogueIsComplete() {
    #expect(FleetStrings.catalogue.problems().isEmpty)
  }
}
