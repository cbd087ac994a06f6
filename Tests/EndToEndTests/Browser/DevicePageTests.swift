import Client
import ConstellationModel
import Foundation
import TestSupport
import Testing

/// One profile on a phone's browser and another device, both ways, in a real headless Chromium
/// against the release server: the phone opens the link another device shows (or types its
/// code) and becomes that profile; the phone shows a link that another device redeems, sees it
/// listed, and revokes it.
@Suite(.serialized, .tier(.browser)) struct DevicePageTests {
    let workspace = Workspace()

    @Test func aPhoneTakesTheProfileOfAnotherDeviceByItsLinkOrCode() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let anonymous = server.client
        let laptop = try await anonymous.register(NewProfile(displayName: "Ada", deviceName: "Laptop"))
        let ada = anonymous.authenticated(laptop.apiKey)

        try await Browser.with { phone in
            // The camera opens the link in the other device's QR code.
            try await phone.open(server.url + "/#link=" + (try await ada.createDeviceLink()).token)
            // Nothing is taken until the person says the other device is theirs.
            try await phone.wait(for: "the offer", until: "!document.getElementById('link-accept').hidden")
            #expect(try await ada.devices().count == 1)
            try await phone.click("#link-accept")
            try await phone.wait(for: "welcome", until: "/Welcome back, Ada/.test(document.getElementById('status').textContent)")
            try await phone.wait(for: "my devices", until: "/Laptop/.test(document.getElementById('devices').textContent)")
            #expect(try await phone.run("return location.hash;") as? String == "", "the link is out of the address bar")
            let devices = try await ada.devices()
            #expect(devices.count == 2 && devices[1].name?.hasPrefix("Browser on") == true, "\(devices)")
            try await phone.expectCleanPage(origin: server.url)
        }
        try await Browser.with { otherPhone in
            // A code typed, in the form beside the join form; a used code gets a clear message.
            let link = try await ada.createDeviceLink()
            try await otherPhone.open(server.url + "/")
            try await otherPhone.type("#link-code-input", link.code.lowercased() + "\n")
            try await otherPhone.wait(for: "home", until: "!document.getElementById('home').hidden")
            #expect(try await ada.devices().count == 3)
        }
        try await Browser.with { lateComer in
            let link = try await ada.createDeviceLink()
            _ = try await anonymous.redeemDeviceLink(DeviceLinkRedemption(code: link.code))
            try await lateComer.open(server.url + "/")
            try await lateComer.type("#link-code-input", link.code + "\n")
            try await lateComer.wait(for: "refusal", until: "/used already/.test(document.getElementById('status').textContent)")
            #expect(try await lateComer.run("return document.getElementById('home').hidden;") as? Bool == true)
        }
    }

    @Test func aPhoneLinksAnotherDeviceThenRevokesIt() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let anonymous = server.client
        try await Browser.with { phone in
            try await phone.open(server.url + "/")
            try await phone.type("#name", "Bob\n")
            try await phone.wait(for: "home", until: "!document.getElementById('home').hidden")
            try await phone.click("#link-device")
            try await phone.wait(for: "the link's QR code", until: "document.getElementById('device-link-qr').naturalWidth > 0")
            let caption = try await phone.text("#device-link-caption")
            let code = try #require(caption.firstMatch(of: /type ([A-Z0-9]{5}-[A-Z0-9]{5})/).map { String($0.output.1) }, "\(caption)")

            let laptop = try await anonymous.redeemDeviceLink(DeviceLinkRedemption(code: code, deviceName: "Laptop"))
            #expect(laptop.profile.displayName == "Bob")
            try await phone.wait(
                for: "linked", until: "/Laptop now uses your profile/.test(document.getElementById('status').textContent)")
            try await phone.wait(for: "the revoke button", until: "document.querySelector('#devices button') !== null")
            try await phone.click("#devices button")
            try await phone.wait(
                for: "revoked", until: "/Laptop no longer uses your profile/.test(document.getElementById('status').textContent)")
            // The button pressed went with its device: the focus goes to what was said, not to the page's top.
            try await phone.wait(for: "the focus on what was said", until: "document.activeElement.id === 'status'")
            await #expect(throws: ClientError.self) { _ = try await anonymous.authenticated(laptop.apiKey).me() }
            try await phone.expectCleanPage(origin: server.url)
        }
    }

    /// A browser that holds a profile (Cleo's, on it alone) opens another device's link (Dan's,
    /// from the CLI's `device link`): it asks which to keep; keeping forgets the link; replacing a
    /// profile nothing else could bring back is warned of first, with a recovery code offered,
    /// whose code then gets Cleo back; the page reloads as Dan.
    @Test func aBrowserWithAProfileKeepsOrReplacesIt() async throws {
        let server = try ServerProcess(databaseURL: try await TestDatabase.createEmpty(), dataDirectory: workspace.serverData)
        defer { _ = server.stop() }
        let anonymous = server.client
        let dan = anonymous.authenticated(try await anonymous.register(NewProfile(displayName: "Dan", deviceName: "Terminal")).apiKey)
        try await Browser.with { browser in
            try await browser.open(server.url + "/")
            try await browser.type("#name", "Cleo\n")
            try await browser.wait(for: "home", until: "!document.getElementById('home').hidden")
            let cleoKey = try #require(try await browser.run("return localStorage.getItem('constellation.apiKey');") as? String)

            // Kept: nothing changes, the link is not used.
            let first = try await dan.createDeviceLink()
            try await browser.open(server.url + "/#link=" + first.token)
            try await browser.wait(for: "the question", until: "!document.getElementById('replace-profile').hidden")
            #expect(try await browser.text("#replace-keep") == "Keep Cleo")
            try await browser.wait(for: "the warning", until: "!document.getElementById('replace-warning').hidden")
            #expect(try await browser.text("#replace-warning").contains("no other device and no recovery code"))
            #expect(try await browser.seriousAccessibilityProblems() == [])
            try await browser.click("#replace-keep")
            try await browser.wait(for: "kept", until: "/keeps Cleo/.test(document.getElementById('status').textContent)")
            #expect(try await dan.deviceLink(first.id).state == .pending, "the link was not used")

            // Replaced, after a recovery code was made for Cleo.
            let second = try await dan.createDeviceLink()
            try await browser.open(server.url + "/#link=" + second.token)
            try await browser.wait(for: "the warning", until: "!document.getElementById('replace-recovery').hidden")
            try await browser.click("#replace-recovery")
            try await browser.wait(for: "the recovery code", until: "!document.getElementById('replace-recovery-code').hidden")
            let recovery = try await browser.text("#replace-recovery-code")
            try await browser.click("#replace-yes")
            try await browser.wait(
                for: "Dan here",
                until: "/Welcome back, Dan/.test(document.getElementById('status').textContent) && !document.getElementById('home').hidden")
            #expect(
                try await browser.run("return JSON.parse(localStorage.getItem('constellation.profile')).displayName;") as? String == "Dan")
            #expect(try await dan.devices().count == 2)
            #expect(try await anonymous.authenticated(cleoKey).devices().count == 1, "Cleo keeps her device list")
            let back = try await anonymous.redeemRecoveryCode(RecoveryRedemption(recoveryCode: recovery))
            #expect(back.profile.displayName == "Cleo", "the recovery code brings Cleo back")
            try await browser.expectCleanPage(origin: server.url)
        }
    }
}
