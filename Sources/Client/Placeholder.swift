enum _PlaceholderClient {}
