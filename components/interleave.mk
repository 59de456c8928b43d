# Sub-core warp issue and hw classification (model.md 4.2, 5.3, 6.2).
