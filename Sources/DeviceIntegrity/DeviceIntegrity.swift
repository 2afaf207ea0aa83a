/// Device integrity verification: Apple App Attest and Google Play Integrity (docs/device-integrity.md).
public enum DeviceIntegrity {}
