@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Testing

@Suite struct AppRegistryTests {
    @Test func developmentDefaultsServeAllFiveApps() throws {
        let registry = AppRegistry.developmentDefaults
        #expect(Set(registry.apps.keys) == Set(AppID.allCases))
        for id in AppID.allCases {
            let app = try registry.app(named: id.rawValue)
            #expect(app.id == id)
            #expect(app.enabled)
            // Ex-Eraser stores no e-mail address, so it offers no password sign-in.
            #expect(app.authProviders == (id == .exeraser ? [.apple, .google] : [.password, .apple, .google]))
            #expect(app.appleAudiences == ["dev.kindred.\(id.rawValue)"])
        }
    }

    @Test func exEraserStoresNoEmail() throws {
        let registry = AppRegistry.developmentDefaults
        #expect(try registry.app(named: "exeraser").storesEmail == false)
        for id in AppID.allCases where id != .exeraser {
            #expect(try registry.app(named: id.rawValue).storesEmail)
        }
    }

    @Test func lookupErrors() throws {
        var closer = AppConfiguration.developmentDefault(for: .closer)
        closer.enabled = false
        let registry = AppRegistry([closer, .developmentDefault(for: .pulse)])
        #expect(throws: AppRegistry.LookupError.missing) { try registry.app(named: nil) }
        #expect(throws: AppRegistry.LookupError.missing) { try registry.app(named: "") }
        #expect(throws: AppRegistry.LookupError.unknown("Closer")) { try registry.app(named: "Closer") }
        #expect(throws: AppRegistry.LookupError.unknown("soulmate")) { try registry.app(named: "soulmate") }
        #expect(throws: AppRegistry.LookupError.disabled(.closer)) { try registry.app(named: "closer") }
        #expect(try registry.app(named: "pulse").id == .pulse)
    }
}
