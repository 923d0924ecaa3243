"""Project commands for the ``scrapy`` tool (``COMMANDS_MODULE``): one module per command."""
