-- Clankwork for Neovim 0.7 or later: the .clank filetype and the `clankwork lsp` server,
-- with Neovim's own LSP client (no plugin needed).
--
-- Put this file in ~/.config/nvim/plugin/ (or `dofile` it from init.lua). The server is
-- the `clankwork` command on your PATH; to use another one (a checkout's venv):
--   vim.g.clankwork_cmd = { "/path/to/checkout/.venv/bin/clankwork", "lsp" }
-- One server runs per pack (the folder holding pack.clank above the file).

if vim.fn.has("nvim-0.7") == 0 then
  vim.api.nvim_echo({ { "clankwork.lua needs Neovim 0.7 or later (`nvim --version`); "
    .. "on older versions install a newer Neovim (e.g. the AppImage from neovim.io)",
    "ErrorMsg" } }, true, {})
  return
end

vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
  pattern = "*.clank",
  callback = function() vim.bo.filetype = "clank" end,
})

local function pack_root(file)
  local dir = vim.fn.fnamemodify(file, ":p:h")
  local manifest = vim.fn.findfile("pack.clank", dir .. ";")
  if manifest ~= "" then
    return vim.fn.fnamemodify(manifest, ":p:h")
  end
  return dir
end

local clients = {} -- pack folder -> client id

vim.api.nvim_create_autocmd("FileType", {
  pattern = "clank",
  callback = function(args)
    vim.bo[args.buf].commentstring = "# %s"
    local cmd = vim.g.clankwork_cmd or { "clankwork", "lsp" }
    if vim.fn.executable(cmd[1]) == 0 then
      vim.notify("Clankwork: `" .. cmd[1] .. "` is not an executable on your PATH; install "
        .. "Clankwork (pipx install clankwork) or set vim.g.clankwork_cmd", vim.log.levels.ERROR)
      return
    end
    local root = pack_root(vim.api.nvim_buf_get_name(args.buf))
    local id = clients[root]
    if id == nil or vim.lsp.get_client_by_id(id) == nil then
      id = vim.lsp.start_client({ name = "clankwork", cmd = cmd, root_dir = root })
      if id == nil then
        vim.notify("Clankwork: could not start " .. table.concat(cmd, " "), vim.log.levels.ERROR)
        return
      end
      clients[root] = id
    end
    vim.lsp.buf_attach_client(args.buf, id)
  end,
})
