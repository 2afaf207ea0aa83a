@_exported import KindredAPI
