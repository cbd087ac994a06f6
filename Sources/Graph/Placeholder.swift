enum _PlaceholderGraph {}
