# The stock hardware-faithful configurations and their variants.
