enum ViewerPage { static let html = "<html></html>" }
