enum _PlaceholderServer {}
